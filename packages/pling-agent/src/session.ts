// AgentSession: one conversation's history, summary and event stream, and the turn loop. send() calls run one at
// a time; cancel() aborts the model request in flight and the run stops at the next safe point.
import type { Message } from '@aalis/schema-message';
import { type Clock, cancelled } from './clock.js';
import type { Readiness, ResolvedAgentConfig } from './config.js';
import { isAbortError, PlingError } from './errors.js';
import { basePromptOf, compactHistory, composeSystemPrompt } from './history.js';
import type { HookRegistry } from './hooks.js';
import type { LlmClient, ModelToolDefinition } from './llm-client.js';
import { callModel } from './model-call.js';
import { Observable } from './observable.js';
import type { RuntimeEvent, SessionEvent, SessionEventBody } from './session-events.js';
import type { Telemetry } from './telemetry.js';
import { TEXTS } from './texts.js';
import { type AgentTool, cancelledResult, runToolCall, type ToolSource } from './tool.js';
import type { Trace } from './trace.js';

export type SessionStatus = 'idle' | 'running' | 'cancelled';

export interface SendResult {
  outcome: 'completed' | 'max-turns' | 'cancelled' | 'error';
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
}

/** Everything reset() clears; a run writes into the state it started with, so a reset discards its late writes. */
interface ConversationState {
  messages: Message[];
  summary: string;
  events: SessionEvent[];
  /** Cross-document continuity state; nothing is checkpointed yet. */
  checkpoint: undefined;
  turnsInRun: number;
}

export class AgentSession extends Observable<SessionSnapshot> {
  readonly id: string;
  private state = freshState();
  private currentStatus: SessionStatus = 'idle';
  private queue: Promise<unknown> = Promise.resolve();
  private controller: AbortController | undefined;
  /** Incremented by cancel() and reset(): sends queued before it do not run. */
  private cancelEpoch = 0;
  private sequence = 0;

  constructor(private readonly options: AgentSessionOptions) {
    super();
    this.id = options.id;
  }

  /** Whether cross-document checkpoints are enabled (config.continuity); nothing is persisted yet. */
  get continuity(): boolean {
    return this.options.config.continuity;
  }

  /** Adds the user message and runs the loop; waits for earlier sends first. */
  send(input: string): Promise<SendResult> {
    const epoch = this.cancelEpoch;
    const run = this.queue.then(() => this.run(input, epoch));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Aborts the model request in flight; the run stops at the next safe point and queued sends do not start. */
  cancel(): void {
    this.cancelEpoch++;
    if (this.controller) {
      this.controller.abort(cancelled(this.options.config.locale));
      this.setStatus('cancelled');
    }
  }

  /**
   * Clears messages, summary, events, continuity state and run counters, cancelling a run in progress. The
   * confirmation and handoff queues (not part of this package yet) and telemetry are the host's to clear.
   */
  reset(): void {
    this.cancel();
    this.state = freshState();
    this.sequence = 0;
    this.currentStatus = 'idle';
    // Always: an idle session's snapshot still held the old events.
    this.changed();
  }

  status(): SessionStatus {
    return this.currentStatus;
  }

  /** The stored event list, oldest first; not capped. */
  events(): readonly SessionEvent[] {
    return this.getSnapshot().events;
  }

  /** The history the next request is built from (after compaction) and the current summary. */
  history(): { messages: readonly Message[]; summary: string } {
    return { messages: [...this.state.messages], summary: this.state.summary };
  }

  protected buildSnapshot(): SessionSnapshot {
    return Object.freeze({
      id: this.id,
      status: this.currentStatus,
      events: Object.freeze([...this.state.events]),
      messageCount: this.state.messages.length,
      summary: this.state.summary,
      continuity: this.continuity,
    });
  }

  private async run(input: string, epoch: number): Promise<SendResult> {
    if (epoch !== this.cancelEpoch) return { outcome: 'cancelled', turns: 0 };
    const { readiness } = this.options;
    const state = this.state;
    if (!readiness.ready) {
      this.emit(state, { type: 'error', code: readiness.error.code, message: readiness.error.message });
      return { outcome: 'error', turns: 0, error: readiness.error };
    }
    const controller = new AbortController();
    this.controller = controller;
    state.turnsInRun = 0;
    this.setStatus('running');
    state.messages.push({ role: 'user', content: input, timestamp: this.options.clock.now() });
    this.emit(state, { type: 'message', role: 'user', text: input });
    try {
      return await this.loop(state, controller.signal);
    } catch (error) {
      const texts = TEXTS[this.options.config.locale];
      if (isAbortError(error) || controller.signal.aborted) {
        this.emit(state, { type: 'notice', code: 'cancelled', message: texts.cancelledNotice });
        return { outcome: 'cancelled', turns: state.turnsInRun };
      }
      const failure = PlingError.isInstance(error)
        ? error
        : new PlingError({ code: 'MODEL_REQUEST_FAILED', message: String(error), cause: error });
      this.emit(state, { type: 'error', code: failure.code, message: failure.message });
      return { outcome: 'error', turns: state.turnsInRun, error: failure };
    } finally {
      if (this.controller === controller) this.controller = undefined;
      if (this.currentStatus === 'running') this.setStatus('idle');
    }
  }

  private async loop(state: ConversationState, signal: AbortSignal): Promise<SendResult> {
    const { config } = this.options;
    const texts = TEXTS[config.locale];
    for (let turn = 1; turn <= config.limits.maxTurns; turn++) {
      throwIfAborted(signal);
      state.turnsInRun = turn;
      await this.compact(state, signal);
      throwIfAborted(signal);
      // Read every turn: the request offers, and the calls of its reply run against, the tools of this turn.
      const tools = currentTools(this.options.tools);
      const pagePrompt = (await this.options.buildSystemPrompt?.()) ?? '';
      const system = composeSystemPrompt({ basePrompt: this.basePrompt(), summary: state.summary, pagePrompt, texts });
      const response = await this.model([{ role: 'system', content: system }, ...state.messages], signal, tools);
      const assistant: Message = { role: 'assistant', content: response.content, timestamp: this.options.clock.now() };
      if (response.toolCalls.length > 0) assistant.toolCalls = response.toolCalls;
      if (response.reasoningContent) assistant.reasoningContent = response.reasoningContent;
      state.messages.push(assistant);
      if (response.content !== '') this.emit(state, { type: 'message', role: 'assistant', text: response.content });
      if (response.toolCalls.length === 0) return { outcome: 'completed', text: response.content, turns: turn };
      await this.runTools(state, assistant, turn, signal, tools.byName);
    }
    const message = texts.maxTurnsNotice(config.limits.maxTurns);
    this.emit(state, { type: 'notice', code: 'max-turns', message });
    return { outcome: 'max-turns', turns: config.limits.maxTurns };
  }

  /** Runs the calls of one reply in order; every call gets a result, so the history stays a valid sequence. */
  private async runTools(
    state: ConversationState,
    assistant: Message,
    turn: number,
    signal: AbortSignal,
    tools: ReadonlyMap<string, AgentTool>,
  ) {
    const { hooks, telemetry, clock, config } = this.options;
    const errors = TEXTS[config.locale].errors;
    const calls = assistant.toolCalls ?? [];
    for (const [index, call] of calls.entries()) {
      const base = { callId: call.id, toolName: call.function.name, turn };
      if (index > 0 && config.minActionIntervalMs > 0 && !signal.aborted) {
        await clock.sleep(config.minActionIntervalMs, signal).catch(() => undefined);
      }
      if (signal.aborted) {
        this.pushToolMessage(state, call.id, call.function.name, cancelledResult(errors));
        continue;
      }
      let announced = false;
      const outcome = await runToolCall({
        call,
        tools,
        hooks,
        turn,
        sessionId: this.id,
        signal,
        clock,
        errors,
        onExecuted: (info) => telemetry.recordToolCall(info),
        // The call is announced when it starts, so views show it running while it waits (e.g. for a confirmation).
        onStart: (id) => {
          announced = true;
          this.emit(state, { type: 'tool-call', ...base, id });
        },
      });
      if (outcome.kind === 'blocked') {
        this.emit(state, { type: 'blocked', ...base, id: outcome.id, code: 'HOOK_BLOCKED', reason: outcome.reason });
      } else {
        if (!announced) this.emit(state, { type: 'tool-call', ...base, id: outcome.id });
        const result = outcome.result;
        const code = 'error' in result ? result.error.code : undefined;
        this.emit(state, {
          type: 'tool-result',
          ...base,
          id: outcome.id,
          ok: code === undefined,
          ...(code && { code }),
        });
      }
      this.pushToolMessage(state, call.id, call.function.name, outcome.result);
    }
    throwIfAborted(signal);
  }

  private pushToolMessage(state: ConversationState, callId: string, name: string, result: unknown): void {
    state.messages.push({ role: 'tool', toolCallId: callId, name, content: JSON.stringify(result) });
  }

  private async compact(state: ConversationState, signal: AbortSignal): Promise<void> {
    const { config } = this.options;
    const result = await compactHistory({
      basePrompt: this.basePrompt(),
      summary: state.summary,
      messages: state.messages,
      limits: config.limits,
      texts: TEXTS[config.locale],
      summarize: async (messages) => (await this.model(messages, signal)).content,
    });
    if (!result.compacted) return;
    state.messages = result.messages;
    state.summary = result.summary;
    const { tokensBefore, tokensAfter } = result;
    this.emit(state, { type: 'compacted', tokensBefore, tokensAfter, keptMessages: result.messages.length });
  }

  /** A turn's request when `tools` is given (with text deltas); a summary request without. */
  private model(messages: Message[], signal: AbortSignal, tools?: TurnTools) {
    const withTools = tools !== undefined;
    const { config, llm, telemetry, trace, clock, onEvent } = this.options;
    const state = this.state;
    return callModel({
      llm,
      config,
      telemetry,
      trace,
      clock,
      signal,
      sessionId: this.id,
      messages,
      tools: tools?.definitions ?? [],
      onTextDelta:
        withTools && onEvent ? (text) => onEvent({ type: 'text-delta', sessionId: this.id, text }) : undefined,
      onRetry: ({ retry, delayMs, error }) => {
        const code = PlingError.isInstance(error) ? error.code : undefined;
        this.emit(state, { type: 'retry', retry, delayMs, ...(code && { code }) });
      },
    });
  }

  private basePrompt(): string {
    const { config } = this.options;
    return basePromptOf({ texts: TEXTS[config.locale], systemPrompt: config.systemPrompt });
  }

  /** Stores and announces an event, unless reset() replaced the state the run belongs to. */
  private emit(state: ConversationState, body: SessionEventBody): void {
    if (state !== this.state) return;
    const event = { ...body, seq: ++this.sequence, at: this.options.clock.now(), sessionId: this.id } as SessionEvent;
    state.events.push(event);
    this.changed();
    this.options.onEvent?.(event);
  }

  private setStatus(status: SessionStatus): void {
    if (this.currentStatus === status) return;
    this.currentStatus = status;
    this.changed();
  }
}

function freshState(): ConversationState {
  return { messages: [], summary: '', events: [], checkpoint: undefined, turnsInRun: 0 };
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw PlingError.isInstance(signal.reason) ? signal.reason : cancelled();
}

interface TurnTools {
  byName: ReadonlyMap<string, AgentTool>;
  definitions: ModelToolDefinition[];
}

/** The tools of one turn; with duplicate names the first tool wins. */
function currentTools(source: ToolSource): TurnTools {
  const list = typeof source === 'function' ? source() : source;
  const byName = new Map<string, AgentTool>();
  for (const tool of list) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  const definitions = [...byName.values()].map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  return { byName, definitions };
}
