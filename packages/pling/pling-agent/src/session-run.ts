// One run of a session: its turns (the budget asked, compaction, the model request, the reply's tool calls) until a
// reply without tool calls, the turn limit, a budget, a cancel or an error. The session (session.ts) queues the runs
// and owns status, events and checkpoints; a run writes into its conversation state through the RunHost it is given.
import type { Message } from '@aalis/schema-message';
import { abortable } from './abortable.js';
import { RunBudget } from './budget.js';
import type { ResolvedAgentConfig } from './config.js';
import {
  type ConversationState,
  currentTools,
  lastUserMessage,
  type TurnTools,
  throwIfAborted,
} from './conversation-state.js';
import { isAbortError, PlingError } from './errors.js';
import { basePromptOf, composeSystemPrompt } from './history.js';
import { callModel } from './model-call.js';
import { applyModelOverrides } from './model-overrides.js';
import { type Redact, redactError, redactMessage, streamRedactor } from './redaction.js';
import { compactConversation } from './session-compaction.js';
import type { RuntimeEvent, SessionEventBody } from './session-events.js';
import type { AgentSessionOptions, SendResult } from './session-types.js';
import { TEXTS } from './texts.js';
import type { AgentTool } from './tool.js';
import { runToolRound, type ToolRoundContext } from './tool-round.js';

/** What a run needs of its session, bound to the conversation state the run belongs to. */
export interface RunHost {
  readonly sessionId: string;
  readonly options: AgentSessionOptions;
  /** The config of this run: the session's with the model settings of this send applied. */
  readonly config: ResolvedAgentConfig;
  /** Stores and announces an event (dropped once reset() replaced the run's state). */
  emit(body: SessionEventBody): void;
  /** Hands a runtime event (a text delta) to the listener without storing it. */
  deliver(event: RuntimeEvent): void;
  /** The page's current redactor. */
  redactor(): Redact;
  /** Stores a tool call's result in the history, redacted. */
  pushToolMessage(callId: string, name: string, result: unknown): void;
}

/**
 * What stops a run before it starts — the runtime not ready, a model setting refused, a retry with nothing to answer
 * (`nothingToRetry`) — with the error event to store, or the config of the run (the send's model settings applied).
 */
export function prepareRun(
  options: AgentSessionOptions,
  nothingToRetry: boolean,
): { config: ResolvedAgentConfig } | { refused: SendResult; event?: SessionEventBody } {
  const { readiness } = options;
  if (!readiness.ready) {
    const { error } = readiness;
    return { refused: { outcome: 'error', turns: 0, error }, event: errorEvent(error) };
  }
  let config: ResolvedAgentConfig;
  try {
    config = applyModelOverrides(options.config, options.modelOverrides?.());
  } catch (error) {
    const failure = error as PlingError;
    return { refused: { outcome: 'error', turns: 0, error: failure }, event: errorEvent(failure) };
  }
  if (nothingToRetry) {
    const message = TEXTS[options.config.locale].errors.nothingToRetry;
    return { refused: { outcome: 'error', turns: 0, error: new PlingError({ code: 'NOTHING_TO_RETRY', message }) } };
  }
  return { config };
}

const errorEvent = (error: PlingError): SessionEventBody => ({
  type: 'error',
  code: error.code,
  message: error.message,
});

export class SessionRun {
  private readonly budget: RunBudget;

  constructor(
    private readonly host: RunHost,
    private readonly state: ConversationState,
    private readonly signal: AbortSignal,
  ) {
    this.budget = new RunBudget(host.options.config.pricing);
  }

  /** Runs the turns from `firstTurn` on; the final text is redacted. */
  async turns(firstTurn: number): Promise<SendResult> {
    const result = await this.loop(firstTurn);
    return result.text === undefined ? result : { ...result, text: this.host.redactor()(result.text) };
  }

  /** A run that threw: cancelled (with its notice), or an error said as an event (a partial reply kept first). */
  failed(error: unknown): SendResult {
    const { state, signal } = this;
    const texts = TEXTS[this.host.options.config.locale];
    if (isAbortError(error) || signal.aborted) {
      this.host.emit({ type: 'notice', code: 'cancelled', message: texts.cancelledNotice });
      return { outcome: 'cancelled', turns: state.turnsInRun };
    }
    const failure = redactError(
      PlingError.isInstance(error)
        ? error
        : new PlingError({ code: 'MODEL_REQUEST_FAILED', message: String(error), cause: error }),
      this.host.redactor(),
    );
    if (failure.code === 'MODEL_STREAM_ERROR' && failure.partialContent) this.keepPartialReply(failure);
    this.host.emit({ type: 'error', code: failure.code, message: failure.message });
    return { outcome: 'error', turns: state.turnsInRun, error: failure };
  }

  /** What a tool round writes through. */
  roundContext(): ToolRoundContext {
    const { sessionId, options } = this.host;
    const { hooks, telemetry, clock, config } = options;
    return {
      sessionId,
      config,
      hooks,
      telemetry,
      clock,
      emit: (body) => this.host.emit(body),
      pushResult: (callId, name, result) => this.host.pushToolMessage(callId, name, result),
    };
  }

  /**
   * A stream that broke after text was shown: the shown part stays, in the history (so the model knows what it
   * already said) and as a message marked `interrupted`, before the error.
   */
  private keepPartialReply(failure: PlingError): void {
    const text = failure.partialContent ?? '';
    this.state.messages.push({ role: 'assistant', content: text, timestamp: this.host.options.clock.now() });
    this.host.emit({ type: 'message', role: 'assistant', text, interrupted: true });
  }

  private async loop(firstTurn: number): Promise<SendResult> {
    const { state, signal, host } = this;
    const { config, clock } = host.options;
    const texts = TEXTS[config.locale];
    // The message the user sent for this run: compaction never summarises it away (keepRecent 0 included).
    const userMessage = lastUserMessage(state.messages);
    for (let turn = firstTurn; turn <= config.limits.maxTurns; turn++) {
      throwIfAborted(signal);
      const exceeded = await this.budgetReached(turn);
      if (exceeded !== undefined) {
        host.emit({ type: 'notice', code: 'budget', message: texts.budgetNotice(exceeded) });
        return { outcome: 'budget', turns: turn - 1 };
      }
      throwIfAborted(signal);
      state.turnsInRun = turn;
      await this.compact(userMessage);
      throwIfAborted(signal);
      // Read every turn: the request offers, and the calls of its reply run against, the tools of this turn.
      const tools = currentTools(host.options.tools);
      const pagePrompt = (await abortable(host.options.buildSystemPrompt?.(), signal)) ?? '';
      const system = composeSystemPrompt({ basePrompt: this.basePrompt(), summary: state.summary, pagePrompt, texts });
      const request: Message[] = [{ role: 'system', content: system }, ...state.messages];
      const response = await this.model(request, tools);
      const assistant = redactMessage(
        { role: 'assistant', content: response.content, timestamp: clock.now() },
        host.redactor(),
      );
      if (response.toolCalls.length > 0) assistant.toolCalls = response.toolCalls;
      if (response.reasoningContent) assistant.reasoningContent = response.reasoningContent;
      state.messages.push(assistant);
      if (response.content !== '') host.emit({ type: 'message', role: 'assistant', text: assistant.content });
      if (response.toolCalls.length === 0) return { outcome: 'completed', text: assistant.content, turns: turn };
      await this.runTools(assistant, turn, tools.byName);
    }
    const message = texts.maxTurnsNotice(config.limits.maxTurns);
    host.emit({ type: 'notice', code: 'max-turns', message });
    return { outcome: 'max-turns', turns: config.limits.maxTurns };
  }

  /** The detail of the budget notice when a run budget or the host's check says stop, else undefined. */
  private async budgetReached(turn: number): Promise<string | undefined> {
    const { budget, host } = this;
    const { config, checkBudget, telemetry } = host.options;
    const texts = TEXTS[config.locale];
    const reached = budget.reached(config.budget, texts);
    if (reached !== undefined || !checkBudget) return reached;
    const context = { sessionId: host.sessionId, turn, run: budget.run, telemetry: telemetry.snapshot() };
    const decision = await abortable(checkBudget(context), this.signal);
    if (typeof decision !== 'object' || decision === null || decision.exceeded !== true) return undefined;
    return typeof decision.reason === 'string' && decision.reason !== '' ? decision.reason : texts.budgetHost;
  }

  /** Runs the calls of one reply in order; every call gets a result, so the history stays a valid sequence. */
  private runTools(assistant: Message, turn: number, tools: ReadonlyMap<string, AgentTool>) {
    return runToolRound({ context: this.roundContext(), assistant, turn, signal: this.signal, tools });
  }

  private compact(userMessage: Message | undefined) {
    return compactConversation({
      state: this.state,
      config: this.host.options.config,
      basePrompt: this.basePrompt(),
      protect: userMessage,
      summarize: async (messages) => this.host.redactor()((await this.model(messages)).content),
      emit: (body) => this.host.emit(body),
    });
  }

  /** A turn's request when `tools` is given (with text deltas); a summary request without. */
  private model(messages: Message[], tools?: TurnTools) {
    const { host, budget } = this;
    const withTools = tools !== undefined;
    const { llm, telemetry, trace, clock, onEvent } = host.options;
    const deltas =
      withTools && onEvent
        ? streamRedactor(
            () => host.redactor(),
            (text) => host.deliver({ type: 'text-delta', sessionId: host.sessionId, text }),
          )
        : undefined;
    const call = callModel({
      llm,
      config: host.config,
      telemetry,
      trace,
      clock,
      signal: this.signal,
      sessionId: host.sessionId,
      messages,
      tools: tools?.definitions ?? [],
      redactor: () => host.redactor(),
      onUsage: (usage) => budget.record(usage),
      onTextDelta: deltas && ((text) => deltas.push(text)),
      onRetry: ({ retry, delayMs, error }) => {
        const code = PlingError.isInstance(error) ? error.code : undefined;
        // Counted from 1 (the first retry is retry 1), as people count them.
        host.emit({ type: 'retry', retry: retry + 1, delayMs, ...(code && { code }) });
      },
    });
    // What was held back reaches the listeners before the stored message (or the kept partial reply).
    return deltas ? call.finally(() => deltas.flush()) : call;
  }

  private basePrompt(): string {
    const { config } = this.host.options;
    return basePromptOf({ texts: TEXTS[config.locale], systemPrompt: config.systemPrompt });
  }
}
