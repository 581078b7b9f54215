// AgentSession: one conversation's history, summary and event stream, and the turn loop. send() calls run one at
// a time; cancel() aborts the model request in flight and the run stops at the next safe point. A reply's tool calls
// run in tool-round.ts, compaction in session-compaction.ts, checkpoints and resumed runs in session-continuity.ts.
import type { Message } from '@aalis/schema-message';
import { abortable } from './abortable.js';
import { type BudgetCheck, RunBudget } from './budget.js';
import type { SessionCheckpoint } from './checkpoint.js';
import type { Checkpoints, SaveOutcome } from './checkpoint-store.js';
import { continuityTexts } from './checkpoint-texts.js';
import { type Clock, cancelled } from './clock.js';
import type { Readiness, ResolvedAgentConfig } from './config.js';
import {
  type ConversationState,
  currentTools,
  freshState,
  lastUserMessage,
  type TurnTools,
  throwIfAborted,
} from './conversation-state.js';
import { isAbortError, PlingError } from './errors.js';
import { basePromptOf, composeSystemPrompt } from './history.js';
import type { HookRegistry } from './hooks.js';
import { callListener } from './listener-errors.js';
import type { LlmClient } from './llm-client.js';
import { callModel } from './model-call.js';
import { applyModelOverrides, type ModelOverridesSource } from './model-overrides.js';
import { Observable } from './observable.js';
import {
  noRedaction,
  type Redact,
  type RedactorSource,
  redactError,
  redactEventBody,
  redactMessage,
  redactValue,
  streamRedactor,
} from './redaction.js';
import { compactConversation } from './session-compaction.js';
import { buildCheckpoint, resumeRun, settleUnfinished } from './session-continuity.js';
import type { RuntimeEvent, SessionEvent, SessionEventBody } from './session-events.js';
import type { Telemetry } from './telemetry.js';
import { TEXTS } from './texts.js';
import type { AgentTool, ToolSource } from './tool.js';
import { runToolRound, type ToolRoundContext } from './tool-round.js';
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

/** Stands for "no new input": the run a checkpoint restored carries on. */
const RESUME = Symbol('resume');
/** session.retry(): the run starts again from the history as it stands, no message added. */
const RETRY = Symbol('retry');

export class AgentSession extends Observable<SessionSnapshot> {
  readonly id: string;
  private state = freshState();
  private currentStatus: SessionStatus = 'idle';
  private queue: Promise<unknown> = Promise.resolve();
  private controller: AbortController | undefined;
  /** Incremented by cancel() and reset(): sends queued before it do not run. */
  private cancelEpoch = 0;
  /** Sends and retries of this cancel epoch not started yet: the session is running from the send() call on. */
  private waiting = 0;
  private sequence = 0;
  /** The config of the run in progress (model settings applied). */
  private runConfig: ResolvedAgentConfig | undefined;

  constructor(private readonly options: AgentSessionOptions) {
    super();
    this.id = options.id;
    this.listenerLocale = options.config.locale;
    if (options.checkpoints) {
      this.restore(options.checkpoints);
      options.checkpoints.onOutsideChange(() => this.persist());
    }
  }

  /** Whether cross-document checkpoints are enabled: config.continuity on and a storage to keep them in. */
  get continuity(): boolean {
    return this.options.checkpoints?.available === true;
  }

  /** Adds the user message and runs the loop; waits for earlier sends first. */
  send(input: string): Promise<SendResult> {
    const epoch = this.cancelEpoch;
    this.addWaiting();
    const run = this.queue.then(() => this.run(input, epoch));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs again from the history as it stands, after a run that ended with an error: the person's last message is
   * answered again without being added a second time (a dock's retry button). Waits for earlier sends first, as
   * send() does. Without any user message in the history nothing runs (NOTHING_TO_RETRY).
   */
  retry(): Promise<SendResult> {
    const epoch = this.cancelEpoch;
    this.addWaiting();
    const run = this.queue.then(() => this.run(RETRY, epoch));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Aborts the model request in flight; the run stops at the next safe point and queued sends do not start. */
  cancel(): void {
    this.cancelEpoch++;
    const hadWaiting = this.waiting > 0;
    this.waiting = 0;
    if (this.controller) {
      this.controller.abort(cancelled(this.options.config.locale));
      this.setStatus('cancelled');
    } else if (hadWaiting) {
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
    this.persist(); // the fresh state is empty: the checkpoint is removed
  }

  /** 'running' from a send() (or retry()) call until its run ends, though it may still wait for an earlier one. */
  status(): SessionStatus {
    return this.waiting > 0 ? 'running' : this.currentStatus;
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
      status: this.status(),
      events: Object.freeze([...this.state.events]),
      messageCount: this.state.messages.length,
      summary: this.state.summary,
      continuity: this.continuity,
    });
  }

  private async run(input: string | typeof RESUME | typeof RETRY, epoch: number): Promise<SendResult> {
    const state = this.state;
    const interrupted = state.checkpoint.interrupted;
    state.checkpoint.interrupted = undefined;
    if (epoch !== this.cancelEpoch) return { outcome: 'cancelled', turns: 0 };
    // From here the run is in progress (or ends at once): the send no longer waits.
    if (input !== RESUME) this.waiting--;
    try {
      return await this.runStarted(state, input, interrupted);
    } finally {
      // A run that ended before setting 'running' (not ready, a refused setting): its send's 'running' ends here.
      this.statusMayHaveChanged();
    }
  }

  private async runStarted(
    state: ConversationState,
    input: string | typeof RESUME | typeof RETRY,
    interrupted: ConversationState['checkpoint']['interrupted'],
  ): Promise<SendResult> {
    const { readiness } = this.options;
    if (!readiness.ready) {
      this.emit(state, { type: 'error', code: readiness.error.code, message: readiness.error.message });
      return { outcome: 'error', turns: 0, error: readiness.error };
    }
    try {
      this.runConfig = applyModelOverrides(this.options.config, this.options.modelOverrides?.());
    } catch (error) {
      const failure = error as PlingError;
      this.emit(state, { type: 'error', code: failure.code, message: failure.message });
      return { outcome: 'error', turns: 0, error: failure };
    }
    if (input === RETRY && lastUserMessage(state.messages) === undefined) {
      const texts = TEXTS[this.options.config.locale];
      return {
        outcome: 'error',
        turns: 0,
        error: new PlingError({ code: 'NOTHING_TO_RETRY', message: texts.errors.nothingToRetry }),
      };
    }
    const controller = new AbortController();
    this.controller = controller;
    if (input !== RESUME) {
      // A restored run that was cancelled before it resumed: its calls get results, the history stays valid.
      settleUnfinished(state, this.options.config.locale, (callId, name, result) =>
        this.pushToolMessage(state, callId, name, result),
      );
      state.turnsInRun = 0;
    }
    this.setStatus('running');
    if (typeof input === 'string') {
      // Stored redacted: a value the page marks sensitive never reaches the model, even when the user types it.
      state.messages.push({ role: 'user', content: this.redactor()(input), timestamp: this.options.clock.now() });
      this.emit(state, { type: 'message', role: 'user', text: input });
    }
    try {
      const firstTurn =
        input === RESUME
          ? await resumeRun({
              state,
              interrupted,
              signal: controller.signal,
              tools: this.options.tools,
              round: this.roundContext(state),
            })
          : 1;
      const result = await this.loop(state, controller.signal, firstTurn);
      return result.text === undefined ? result : { ...result, text: this.redactor()(result.text) };
    } catch (error) {
      const texts = TEXTS[this.options.config.locale];
      if (isAbortError(error) || controller.signal.aborted) {
        this.emit(state, { type: 'notice', code: 'cancelled', message: texts.cancelledNotice });
        return { outcome: 'cancelled', turns: state.turnsInRun };
      }
      const failure = redactError(
        PlingError.isInstance(error)
          ? error
          : new PlingError({ code: 'MODEL_REQUEST_FAILED', message: String(error), cause: error }),
        this.redactor(),
      );
      if (failure.code === 'MODEL_STREAM_ERROR' && failure.partialContent) this.keepPartialReply(state, failure);
      this.emit(state, { type: 'error', code: failure.code, message: failure.message });
      return { outcome: 'error', turns: state.turnsInRun, error: failure };
    } finally {
      if (this.controller === controller) this.controller = undefined;
      if (this.currentStatus === 'running') this.setStatus('idle');
    }
  }

  /**
   * A stream that broke after text was shown: the shown part stays, in the history (so the model knows what it
   * already said) and as a message marked `interrupted`, before the error.
   */
  private keepPartialReply(state: ConversationState, failure: PlingError): void {
    const text = failure.partialContent ?? '';
    state.messages.push({ role: 'assistant', content: text, timestamp: this.options.clock.now() });
    this.emit(state, { type: 'message', role: 'assistant', text, interrupted: true });
  }

  private async loop(state: ConversationState, signal: AbortSignal, firstTurn = 1): Promise<SendResult> {
    const { config } = this.options;
    const texts = TEXTS[config.locale];
    const budget = new RunBudget(config.pricing);
    // The message the user sent for this run: compaction never summarises it away (keepRecent 0 included).
    const userMessage = lastUserMessage(state.messages);
    for (let turn = firstTurn; turn <= config.limits.maxTurns; turn++) {
      throwIfAborted(signal);
      const exceeded = await this.budgetReached(budget, turn, signal);
      if (exceeded !== undefined) {
        this.emit(state, { type: 'notice', code: 'budget', message: texts.budgetNotice(exceeded) });
        return { outcome: 'budget', turns: turn - 1 };
      }
      throwIfAborted(signal);
      state.turnsInRun = turn;
      await this.compact(state, signal, budget, userMessage);
      throwIfAborted(signal);
      // Read every turn: the request offers, and the calls of its reply run against, the tools of this turn.
      const tools = currentTools(this.options.tools);
      const pagePrompt = (await abortable(this.options.buildSystemPrompt?.(), signal)) ?? '';
      const system = composeSystemPrompt({ basePrompt: this.basePrompt(), summary: state.summary, pagePrompt, texts });
      const request: Message[] = [{ role: 'system', content: system }, ...state.messages];
      const response = await this.model(request, signal, budget, tools);
      const assistant = redactMessage(
        { role: 'assistant', content: response.content, timestamp: this.options.clock.now() },
        this.redactor(),
      );
      if (response.toolCalls.length > 0) assistant.toolCalls = response.toolCalls;
      if (response.reasoningContent) assistant.reasoningContent = response.reasoningContent;
      state.messages.push(assistant);
      if (response.content !== '') this.emit(state, { type: 'message', role: 'assistant', text: assistant.content });
      if (response.toolCalls.length === 0) return { outcome: 'completed', text: assistant.content, turns: turn };
      await this.runTools(state, assistant, turn, signal, tools.byName);
    }
    const message = texts.maxTurnsNotice(config.limits.maxTurns);
    this.emit(state, { type: 'notice', code: 'max-turns', message });
    return { outcome: 'max-turns', turns: config.limits.maxTurns };
  }

  /** The detail of the budget notice when a run budget or the host's check says stop, else undefined. */
  private async budgetReached(budget: RunBudget, turn: number, signal: AbortSignal): Promise<string | undefined> {
    const { config, checkBudget, telemetry } = this.options;
    const texts = TEXTS[config.locale];
    const reached = budget.reached(config.budget, texts);
    if (reached !== undefined || !checkBudget) return reached;
    const context = { sessionId: this.id, turn, run: budget.run, telemetry: telemetry.snapshot() };
    const decision = await abortable(checkBudget(context), signal);
    if (typeof decision !== 'object' || decision === null || decision.exceeded !== true) return undefined;
    return typeof decision.reason === 'string' && decision.reason !== '' ? decision.reason : texts.budgetHost;
  }

  /** Runs the calls of one reply in order; every call gets a result, so the history stays a valid sequence. */
  private runTools(
    state: ConversationState,
    assistant: Message,
    turn: number,
    signal: AbortSignal,
    tools: ReadonlyMap<string, AgentTool>,
  ) {
    return runToolRound({ context: this.roundContext(state), assistant, turn, signal, tools });
  }

  /** What a tool round writes through, bound to the state its run belongs to. */
  private roundContext(state: ConversationState): ToolRoundContext {
    const { hooks, telemetry, clock, config } = this.options;
    return {
      sessionId: this.id,
      config,
      hooks,
      telemetry,
      clock,
      emit: (body) => this.emit(state, body),
      pushResult: (callId, name, result) => this.pushToolMessage(state, callId, name, result),
    };
  }

  /**
   * Stores a call's result, redacted by value: a handler that echoes a restored sensitive value, or a PostToolUse
   * replacement that adds one, leaves only the marker (strings first, then the JSON text for numbers).
   */
  private pushToolMessage(state: ConversationState, callId: string, name: string, result: unknown): void {
    const redact = this.redactor();
    const content = redact(JSON.stringify(redactValue(result, redact)));
    state.messages.push({ role: 'tool', toolCallId: callId, name, content });
    if (state === this.state) this.persist();
  }

  private compact(state: ConversationState, signal: AbortSignal, budget: RunBudget, userMessage: Message | undefined) {
    return compactConversation({
      state,
      config: this.options.config,
      basePrompt: this.basePrompt(),
      protect: userMessage,
      summarize: async (messages) => this.redactor()((await this.model(messages, signal, budget)).content),
      emit: (body) => this.emit(state, body),
    });
  }

  /** A turn's request when `tools` is given (with text deltas); a summary request without. */
  private model(messages: Message[], signal: AbortSignal, budget: RunBudget, tools?: TurnTools) {
    const withTools = tools !== undefined;
    const { config, llm, telemetry, trace, clock, onEvent } = this.options;
    const deltas =
      withTools && onEvent
        ? streamRedactor(
            () => this.redactor(),
            (text) => this.deliver({ type: 'text-delta', sessionId: this.id, text }),
          )
        : undefined;
    const state = this.state;
    const call = callModel({
      llm,
      config: this.runConfig ?? config,
      telemetry,
      trace,
      clock,
      signal,
      sessionId: this.id,
      messages,
      tools: tools?.definitions ?? [],
      redactor: () => this.redactor(),
      onUsage: (usage) => budget.record(usage),
      onTextDelta: deltas && ((text) => deltas.push(text)),
      onRetry: ({ retry, delayMs, error }) => {
        const code = PlingError.isInstance(error) ? error.code : undefined;
        // Counted from 1 (the first retry is retry 1), as people count them.
        this.emit(state, { type: 'retry', retry: retry + 1, delayMs, ...(code && { code }) });
      },
    });
    // What was held back reaches the listeners before the stored message (or the kept partial reply).
    return deltas ? call.finally(() => deltas.flush()) : call;
  }

  private basePrompt(): string {
    const { config } = this.options;
    return basePromptOf({ texts: TEXTS[config.locale], systemPrompt: config.systemPrompt });
  }

  /** Stores and announces an event, unless reset() replaced the state the run belongs to. */
  private emit(state: ConversationState, body: SessionEventBody): void {
    if (state !== this.state) return;
    // Redacted by value: a hook's reason, an error message or the user's own text may carry a sensitive value.
    const redacted = redactEventBody(body, this.redactor());
    const event = {
      ...redacted,
      seq: ++this.sequence,
      at: this.options.clock.now(),
      sessionId: this.id,
    } as SessionEvent;
    state.events.push(event);
    this.changed();
    this.persist();
    this.deliver(event);
  }

  /** A listener that throws is reported once and never breaks the run. */
  private deliver(event: RuntimeEvent): void {
    const { onEvent, config } = this.options;
    if (onEvent) callListener(onEvent, event, { locale: config.locale, redact: this.redactor() });
  }

  /** The page's current redactor (built from the values it shows now), or none. */
  private redactor(): Redact {
    return this.options.redactor?.() ?? noRedaction;
  }

  private addWaiting(): void {
    this.waiting++;
    this.statusMayHaveChanged();
  }

  /** Tells the listeners when status() is no longer what the snapshot says (a new identity only on change). */
  private statusMayHaveChanged(): void {
    if (this.getSnapshot().status !== this.status()) this.changed();
  }

  private setStatus(status: SessionStatus): void {
    if (this.currentStatus === status) return;
    this.currentStatus = status;
    this.changed();
    this.persist();
  }

  // ── Continuity: cross-document checkpoints (see checkpoint.ts) ──

  /** Takes over the conversation a previous document of this tab left, or reports why it could not. */
  private restore(checkpoints: Checkpoints): void {
    const texts = continuityTexts(this.options.config.locale);
    const loaded = checkpoints.load(this.id);
    if (loaded.kind === 'none') return;
    const state = this.state;
    if (loaded.kind === 'discarded') {
      const message = texts.discarded(loaded.problem);
      this.emit(state, { type: 'continuity', outcome: 'discarded', problem: loaded.problem, message });
      return;
    }
    const { checkpoint } = loaded;
    state.messages = checkpoint.messages;
    state.summary = checkpoint.summary;
    // One "restored" line, the latest: a conversation carried through many pages would otherwise list one per page.
    state.events = checkpoint.events.filter((event) => event.type !== 'continuity' || event.outcome !== 'restored');
    this.sequence = checkpoint.sequence;
    const message = texts.restored(checkpoint.messages.filter((item) => item.role !== 'tool').length);
    this.emit(state, { type: 'continuity', outcome: 'restored', message });
    if (!checkpoint.run) return;
    state.turnsInRun = checkpoint.run.turns;
    state.checkpoint.interrupted = { awaitingConfirmation: new Set(checkpoint.run.awaitingConfirmation) };
    // After the new page had a task to declare its actions and mount its views; a send() meanwhile waits for it.
    const epoch = this.cancelEpoch;
    const resumed = this.queue
      .then(() => this.options.clock.sleep(0))
      .then(() => (state === this.state ? this.run(RESUME, epoch) : undefined));
    this.queue = resumed.catch(() => undefined);
  }

  /** Schedules a checkpoint write (coalesced: one per task). */
  private persist(): void {
    const checkpoints = this.options.checkpoints;
    if (!checkpoints) return;
    checkpoints.save(
      this.id,
      () => this.checkpoint(),
      (outcome) => this.reportSave(outcome),
    );
  }

  private checkpoint(): SessionCheckpoint | undefined {
    return buildCheckpoint({
      state: this.state,
      sessionId: this.id,
      savedAt: this.options.clock.now(),
      sequence: this.sequence,
      running: this.currentStatus === 'running',
      awaitingConfirmation: (callId) => this.options.checkpoints!.awaitingConfirmation(this.id, callId),
    });
  }

  /** A problem is reported once, when it starts; a later successful write ends it. */
  private reportSave(outcome: SaveOutcome): void {
    const state = this.state;
    const problem = outcome.ok ? undefined : outcome.problem;
    if (problem === state.checkpoint.problem) return;
    state.checkpoint.problem = problem;
    if (!problem) return;
    const message = continuityTexts(this.options.config.locale).notSaved(problem, this.options.checkpoints!.maxBytes);
    this.emit(state, { type: 'continuity', outcome: 'not-saved', problem, message });
  }
}
