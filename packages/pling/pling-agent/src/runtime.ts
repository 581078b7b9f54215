// AgentRuntime: one wired conversation environment — config resolved once, model client, hooks, telemetry, trace
// and the sessions built on them.
import type { BudgetCheck } from './budget.js';
import { type CheckpointOptions, Checkpoints } from './checkpoint-store.js';
import { type Clock, systemClock } from './clock.js';
import {
  type AgentConfig,
  type AgentEnv,
  checkReadiness,
  type Readiness,
  type ResolvedAgentConfig,
  resolveAgentConfig,
} from './config.js';
import { PlingError } from './errors.js';
import { createFetchLlmClient } from './fetch-llm-client.js';
import { HookRegistry } from './hooks.js';
import type { LlmClient } from './llm-client.js';
import type { ModelOverridesSource } from './model-overrides.js';
import type { RedactorSource } from './redaction.js';
import { AgentSession } from './session.js';
import type { RuntimeEvent } from './session-events.js';
import { Telemetry } from './telemetry.js';
import { TEXTS } from './texts.js';
import type { ToolSource } from './tool.js';
import { Trace } from './trace.js';

export interface CreateAgentRuntimeOptions {
  config?: AgentConfig;
  /** Environment variables (e.g. import.meta.env); the runtime never reads globals. */
  env?: AgentEnv;
  /** A custom or test model client; without it the runtime talks to config.baseUrl with fetch. */
  llm?: LlmClient;
  /**
   * The tools the model is offered: a fixed list, or a function read at the start of every turn (so tools added
   * or removed while a session exists are offered, or no longer offered, from the next turn on).
   */
  tools?: ToolSource;
  hooks?: HookRegistry;
  /** The current page's part of the system prompt, called every turn. */
  buildSystemPrompt?: () => string | Promise<string>;
  /** Every session event, and transient text deltas. */
  onEvent?: (event: RuntimeEvent) => void;
  clock?: Clock;
  /** Where and how cross-document checkpoints are kept when `config.continuity` is on (sessionStorage by default). */
  checkpoint?: CheckpointOptions;
  /** Model settings (model, temperature, maxTokens) read at the start of every send(); see model-overrides.ts. */
  modelOverrides?: ModelOverridesSource /**
   * The page's redactor, built when needed from the values it shows now: every text leaving the runtime (requests,
   * trace, events, results, errors) has those values replaced by markers. @plingjs/core passes its page's.
   */;
  redactor?: RedactorSource;
  /** A host budget (e.g. per tenant), asked before every model request; see BudgetCheck. */
  checkBudget?: BudgetCheck;
}

export interface AgentRuntime {
  /** Resolved once, when the runtime is created. */
  readonly config: Readonly<ResolvedAgentConfig>;
  /** NOT_CONFIGURED when baseUrl, model or (for a direct endpoint) apiKey is missing. */
  readonly readiness: Readiness;
  readonly hooks: HookRegistry;
  readonly telemetry: Telemetry;
  readonly trace: Trace;
  /** The session with this id (default 'default'), created on first use. */
  session(id?: string): AgentSession;
  /** Cancels every session's run; later session() calls throw DISPOSED. */
  dispose(): void;
}

/** Throws INVALID_CONFIG for out-of-range or unknown fields; readiness problems are reported, not thrown. */
export function createAgentRuntime(options: CreateAgentRuntimeOptions = {}): AgentRuntime {
  const config = Object.freeze(resolveAgentConfig({ config: options.config, env: options.env }));
  const readiness = checkReadiness(config, { injectedLlm: options.llm !== undefined });
  const llm =
    options.llm ?? createFetchLlmClient({ baseUrl: config.baseUrl, apiKey: config.apiKey, locale: config.locale });
  const hooks = options.hooks ?? new HookRegistry();
  const telemetry = new Telemetry(config.pricing);
  const trace = new Trace(config.trace);
  const clock = options.clock ?? systemClock;
  const sessions = new Map<string, AgentSession>();
  const checkpoints = config.continuity ? new Checkpoints(options.checkpoint) : undefined;
  checkpoints?.carryTelemetry(telemetry);
  let disposed = false;

  return {
    config,
    readiness,
    hooks,
    telemetry,
    trace,
    session(id = 'default') {
      if (disposed) {
        throw new PlingError({ code: 'DISPOSED', message: TEXTS[config.locale].errors.disposed });
      }
      let session = sessions.get(id);
      if (!session) {
        session = new AgentSession({
          id,
          config,
          readiness,
          llm,
          tools: options.tools ?? [],
          hooks,
          telemetry,
          trace,
          clock,
          ...(options.buildSystemPrompt && { buildSystemPrompt: options.buildSystemPrompt }),
          ...(options.onEvent && { onEvent: options.onEvent }),
          ...(checkpoints && { checkpoints }),
          ...(options.modelOverrides && { modelOverrides: options.modelOverrides }),
          ...(options.redactor && { redactor: options.redactor }),
          ...(options.checkBudget && { checkBudget: options.checkBudget }),
        });
        sessions.set(id, session);
      }
      return session;
    },
    dispose() {
      disposed = true;
      for (const session of sessions.values()) session.cancel();
      sessions.clear();
    },
  };
}
