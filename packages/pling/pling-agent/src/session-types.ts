// What an AgentSession is made with and answers: its options, a run's result, its snapshot.
import type { BudgetCheck } from './budget.js';
import type { Checkpoints } from './checkpoint-store.js';
import type { Clock } from './clock.js';
import type { Readiness, ResolvedAgentConfig } from './config.js';
import type { PlingError } from './errors.js';
import type { HookRegistry } from './hooks.js';
import type { LlmClient } from './llm-client.js';
import type { ModelOverridesSource } from './model-overrides.js';
import type { RedactorSource } from './redaction.js';
import type { RuntimeEvent, SessionEvent } from './session-events.js';
import type { Telemetry } from './telemetry.js';
import type { ToolSource } from './tool.js';
import type { Trace } from './trace.js';

export type SessionStatus = 'idle' | 'running' | 'cancelled';

export interface SendResult {
  /** 'budget': a run budget (config.budget) or the host's checkBudget ended the run, with a notice. */
  outcome: 'completed' | 'max-turns' | 'budget' | 'cancelled' | 'error';
  /** The final assistant text, for a completed run. */
  text?: string;
  /** Turns used by this run. */
  turns: number;
  error?: PlingError;
}

export interface SessionSnapshot {
  id: string;
  status: SessionStatus;
  events: readonly SessionEvent[];
  messageCount: number;
  summary: string;
  continuity: boolean;
}

export interface AgentSessionOptions {
  id: string;
  config: ResolvedAgentConfig;
  readiness: Readiness;
  llm: LlmClient;
  /** A fixed list, or a function read at the start of every turn. */
  tools: ToolSource;
  hooks: HookRegistry;
  telemetry: Telemetry;
  trace: Trace;
  clock: Clock;
  /** The current page's part of the system prompt, rebuilt every turn. */
  buildSystemPrompt?: () => string | Promise<string>;
  onEvent?: (event: RuntimeEvent) => void;
  /** Cross-document checkpoints, when config.continuity is on. */
  checkpoints?: Checkpoints;
  /** Model settings read at the start of every send() (a dock's model settings). */
  modelOverrides?: ModelOverridesSource;
  /** The page's redactor: every text leaving the session has its sensitive values replaced by markers. */
  redactor?: RedactorSource;
  /** A host budget (e.g. per tenant), asked before every model request. */
  checkBudget?: BudgetCheck;
}
