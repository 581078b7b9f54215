// Turns the agent's hooks and events into GenAI spans: `invoke_agent` per turn, `chat` per model call and
// `execute_tool` per tool call, both children of their turn's span. Content only when captureContent is set.
import type { LlmAfterContext, LlmBeforeContext, TokenUsageEvent, TurnAfterContext } from '@aalis/api-agent';
import type { LlmUsageEvent } from '@aalis/api-llm';
import type { ToolExecuteEvent } from '@aalis/api-tools';
import {
  type Context,
  context as contexts,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { inputMessagesJson, outputMessagesJson } from './content-attributes.js';
import { AALIS, finishReasonName, GEN_AI } from './genai-attributes.js';

/**
 * Every start and end of this tracer's spans, on one clock with sub-millisecond precision. Without a time the SDK
 * starts a span at Date.now() (whole milliseconds) and ends it at that start plus a precise duration, so a span
 * started within a millisecond of another's end could be dated before it.
 */
const spanTime = (): number => performance.timeOrigin + performance.now();

interface TurnTrace {
  span: Span;
  context: Context;
  sessionId: string;
  outcome?: TurnAfterContext['outcome'];
  error?: string;
  chat?: Span;
  tools: Map<string, Span>;
}

export interface AgentTracerOptions {
  tracer: Tracer;
  /** Record prompts, replies, tool arguments and results (off by default). */
  captureContent: boolean;
  /** gen_ai.agent.name. */
  agentName: string;
  /**
   * The provider instance and the model's own name for a model ref (`<provider instance id>/<model id>`): the
   * conventions' gen_ai.request.model is the name the provider knows ("gpt-4o-mini"), its provider in
   * gen_ai.provider.name. Undefined when the ref is not (or no longer) listed: the ref is used then.
   */
  describeModel?: (ref: string) => { provider: string; model: string } | undefined;
}

export class AgentTracer {
  private readonly turns = new Map<string, TurnTrace>();
  /** The running turn of each session (a session runs one turn at a time): llm:usage names only the session. */
  private readonly running = new Map<string, string>();

  constructor(private readonly options: AgentTracerOptions) {}

  /** Runs a turn inside its `invoke_agent` span (the agent:turn:before middleware). */
  async turn({ turnId, sessionId }: { turnId: string; sessionId: string }, next: () => Promise<void>): Promise<void> {
    const span = this.options.tracer.startSpan(`invoke_agent ${this.options.agentName}`, {
      startTime: spanTime(),
      kind: SpanKind.INTERNAL,
      attributes: {
        [GEN_AI.operation]: 'invoke_agent',
        [GEN_AI.agentName]: this.options.agentName,
        [GEN_AI.conversationId]: sessionId,
        [AALIS.turnId]: turnId,
      },
    });
    const turn: TurnTrace = { span, context: trace.setSpan(contexts.active(), span), sessionId, tools: new Map() };
    this.turns.set(turnId, turn);
    this.running.set(sessionId, turnId);
    try {
      await contexts.with(turn.context, next);
    } catch (error) {
      turn.error ??= error instanceof Error ? error.name : 'Error';
      throw error;
    } finally {
      this.finish(turnId, turn);
    }
  }

  llmBefore(call: LlmBeforeContext): void {
    const turn = this.turns.get(call.turnId);
    // agent:llm:before runs again for the same call when inputs join it: one span per model call.
    if (!turn || turn.chat) return;
    const described = this.options.describeModel?.(call.model);
    turn.chat = this.options.tracer.startSpan(
      `chat ${described?.model ?? call.model}`,
      {
        startTime: spanTime(),
        kind: SpanKind.CLIENT,
        attributes: {
          [GEN_AI.operation]: 'chat',
          [GEN_AI.requestModel]: described?.model ?? call.model,
          ...(described ? { [GEN_AI.provider]: described.provider } : {}),
          [AALIS.modelRef]: call.model,
          [GEN_AI.conversationId]: call.sessionId,
          [AALIS.turnId]: call.turnId,
          [AALIS.iteration]: call.iteration,
        },
      },
      turn.context,
    );
  }

  /** The provider's accounting of the call (emitted before agent:llm:after): provider and cache figures. */
  llmUsage(event: LlmUsageEvent): void {
    const turnId = this.running.get(event.sessionId);
    const chat = turnId === undefined ? undefined : this.turns.get(turnId)?.chat;
    if (!chat) return;
    chat.setAttribute(GEN_AI.provider, event.provider);
    chat.setAttribute(AALIS.latencyMs, event.latencyMs);
    if (event.cacheCreationPromptTokens !== undefined)
      chat.setAttribute(GEN_AI.cacheCreationTokens, event.cacheCreationPromptTokens);
  }

  /** The trim's result for the call (token:usage is emitted after the call, before agent:llm:after). */
  tokenUsage(event: TokenUsageEvent): void {
    const chat = event.turnId === undefined ? undefined : this.turns.get(event.turnId)?.chat;
    if (!chat) return;
    chat.setAttributes({
      [AALIS.trimmed]: event.trimmed,
      [AALIS.usedTokens]: event.used,
      [AALIS.tokenBudget]: event.tokenBudget,
      [AALIS.usageRatio]: event.usageRatio,
      [AALIS.untrimmedHistory]: event.untrimmedHistory,
      [AALIS.historyMessages]: event.historyMessages,
    });
  }

  llmAfter(call: LlmAfterContext): void {
    const turn = this.turns.get(call.turnId);
    const chat = turn?.chat;
    if (!turn || !chat) return;
    const { response } = call;
    chat.setAttributes({
      [GEN_AI.responseModel]: this.options.describeModel?.(response.model)?.model ?? response.model,
      [GEN_AI.inputTokens]: response.usage.promptTokens,
      [GEN_AI.outputTokens]: response.usage.completionTokens,
      [GEN_AI.finishReasons]: [finishReasonName(response.finishReason)],
      [AALIS.toolCalls]: response.toolCalls.length,
    });
    if (response.usage.cachedPromptTokens !== undefined)
      chat.setAttribute(GEN_AI.cacheReadTokens, response.usage.cachedPromptTokens);
    if (this.options.captureContent) {
      chat.setAttribute(GEN_AI.inputMessages, inputMessagesJson(call.messages));
      chat.setAttribute(GEN_AI.outputMessages, outputMessagesJson(response));
    }
    chat.end(spanTime());
    turn.chat = undefined;
  }

  toolExecute(event: ToolExecuteEvent): void {
    const turn = this.turns.get(event.turnId);
    if (!turn) return;
    if (event.phase === 'start') {
      const span = this.options.tracer.startSpan(
        `execute_tool ${event.name}`,
        {
          startTime: spanTime(),
          kind: SpanKind.INTERNAL,
          attributes: {
            [GEN_AI.operation]: 'execute_tool',
            [GEN_AI.toolName]: event.name,
            [GEN_AI.toolCallId]: event.callId,
            [GEN_AI.toolType]: 'function',
            [GEN_AI.conversationId]: event.sessionId,
            [AALIS.turnId]: event.turnId,
          },
        },
        turn.context,
      );
      if (this.options.captureContent) span.setAttribute(GEN_AI.toolArguments, argumentsText(event.arguments));
      turn.tools.set(event.callId, span);
      return;
    }
    const span = turn.tools.get(event.callId);
    if (!span) return;
    turn.tools.delete(event.callId);
    if (this.options.captureContent) span.setAttribute(GEN_AI.toolResult, event.result.content);
    if (event.result.isError) {
      // The tool's text goes to the model, not into the trace (it may quote arguments): the code says what failed.
      span.setAttribute(GEN_AI.errorType, event.result.code ?? 'tool_error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: event.result.code ?? 'tool_error' });
    }
    span.end(spanTime());
  }

  /** agent:turn:after: the outcome (the span itself ends when the turn's middleware returns). */
  turnAfter(after: TurnAfterContext): void {
    const turn = this.turns.get(after.turnId);
    if (turn) turn.outcome = after.outcome;
  }

  /** Spans still open (for tests and the bench). */
  get openTurns(): number {
    return this.turns.size;
  }

  private finish(turnId: string, turn: TurnTrace): void {
    this.turns.delete(turnId);
    if (this.running.get(turn.sessionId) === turnId) this.running.delete(turn.sessionId);
    const failed = turn.outcome === 'error' || turn.error !== undefined;
    // A model call that never got its answer (it failed, or the turn was stopped during it).
    if (turn.chat) {
      const reason = turn.outcome === 'aborted' ? 'aborted' : (turn.error ?? 'llm_call_failed');
      turn.chat.setAttribute(GEN_AI.errorType, reason);
      if (turn.outcome !== 'aborted') turn.chat.setStatus({ code: SpanStatusCode.ERROR, message: reason });
      turn.chat.end(spanTime());
    }
    for (const span of turn.tools.values()) {
      span.setAttribute(GEN_AI.errorType, 'unfinished');
      span.end(spanTime());
    }
    if (turn.outcome !== undefined) turn.span.setAttribute(AALIS.outcome, turn.outcome);
    if (failed) {
      const reason = turn.error ?? 'turn_error';
      turn.span.setAttribute(GEN_AI.errorType, reason);
      turn.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    }
    turn.span.end(spanTime());
  }
}

function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}
