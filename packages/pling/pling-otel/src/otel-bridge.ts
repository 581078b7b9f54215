// An opt-in bridge from a Pling runtime to an OpenTelemetry tracer the host page supplies: `invoke_agent` per run
// of a session (send → reply, error or notice), `chat` per model request and `execute_tool` per tool call, both
// children of their run, after the GenAI semantic conventions. Wire it with `onEvent` and by wrapping the model
// client; nothing changes in a runtime created without it. The runtime redacts the page's sensitive values before
// any text reaches the model client or an event, so what the bridge sees is already masked; message content is
// still recorded only with `captureContent`.

import {
  type Context,
  context as contexts,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { LlmClient, ModelRequest, ModelResponse, RuntimeEvent, SessionEvent } from '@plingjs/agent';

export interface PlingOtelBridgeOptions {
  tracer: Tracer;
  /** Record prompts and replies (gen_ai.input.messages / gen_ai.output.messages). Off by default. */
  captureContent?: boolean;
  /** gen_ai.agent.name (default 'pling'). */
  agentName?: string;
}

export interface PlingOtelBridge {
  /** Pass as createAgentRuntime({ onEvent }), or call from the host's own onEvent. */
  onEvent(event: RuntimeEvent): void;
  /** Wraps the model client (createFetchLlmClient(...) or the host's own) so each request gets a `chat` span. */
  llm(client: LlmClient): LlmClient;
  /** Ends every open span (e.g. on pagehide), marking them unfinished. */
  flush(): void;
}

interface Run {
  span: Span;
  context: Context;
  tools: Map<string, Span>;
}

export function createPlingOtelBridge({
  tracer,
  captureContent = false,
  agentName = 'pling',
}: PlingOtelBridgeOptions): PlingOtelBridge {
  const runs = new Map<string, Run>();

  const startRun = (event: SessionEvent) => {
    endRun(event.sessionId, 'superseded');
    const span = tracer.startSpan(`invoke_agent ${agentName}`, {
      kind: SpanKind.INTERNAL,
      startTime: event.at,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': agentName,
        'gen_ai.conversation.id': event.sessionId,
      },
    });
    runs.set(event.sessionId, { span, context: trace.setSpan(contexts.active(), span), tools: new Map() });
  };

  function endRun(sessionId: string, outcome: string, error?: string, at?: number): void {
    const run = runs.get(sessionId);
    if (!run) return;
    runs.delete(sessionId);
    for (const span of run.tools.values()) {
      span.setAttribute('error.type', 'unfinished');
      span.end(at);
    }
    run.span.setAttribute('pling.run.outcome', outcome);
    if (error !== undefined) {
      run.span.setAttribute('error.type', error);
      run.span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    }
    run.span.end(at);
  }

  const onSessionEvent = (event: SessionEvent) => {
    const run = runs.get(event.sessionId);
    switch (event.type) {
      case 'message':
        if (event.role === 'user') startRun(event);
        else endRun(event.sessionId, event.interrupted ? 'interrupted' : 'completed', undefined, event.at);
        return;
      case 'error':
        endRun(event.sessionId, 'error', event.code, event.at);
        return;
      case 'notice':
        endRun(event.sessionId, event.code, undefined, event.at);
        return;
      case 'retry':
        run?.span.addEvent(
          'retry',
          {
            'pling.retry': event.retry,
            'pling.retry.delay_ms': event.delayMs,
            ...(event.code ? { 'error.type': event.code } : {}),
          },
          event.at,
        );
        return;
      case 'compacted':
        run?.span.addEvent(
          'compacted',
          { 'pling.tokens.before': event.tokensBefore, 'pling.tokens.after': event.tokensAfter },
          event.at,
        );
        return;
      case 'tool-call': {
        if (!run) return;
        const span = tracer.startSpan(
          `execute_tool ${event.toolName}`,
          {
            kind: SpanKind.INTERNAL,
            startTime: event.at,
            attributes: {
              'gen_ai.operation.name': 'execute_tool',
              'gen_ai.tool.name': event.toolName,
              'gen_ai.tool.call.id': event.callId,
              'gen_ai.tool.type': 'function',
              'pling.action.id': event.id,
              'pling.turn': event.turn,
            },
          },
          run.context,
        );
        run.tools.set(event.callId, span);
        return;
      }
      case 'tool-result':
      case 'blocked': {
        const span = run?.tools.get(event.callId);
        if (!run || !span) return;
        run.tools.delete(event.callId);
        const failed = event.type === 'blocked' ? event.code : event.ok ? undefined : (event.code ?? 'tool_error');
        if (failed !== undefined) {
          span.setAttribute('error.type', failed);
          span.setStatus({ code: SpanStatusCode.ERROR, message: failed });
        }
        span.end(event.at);
        return;
      }
      default:
        return;
    }
  };

  /** The run a model request belongs to: requests carry no session, so it is the one run in progress, if one. */
  const currentRun = (): Run | undefined => (runs.size === 1 ? runs.values().next().value : undefined);

  return {
    onEvent(event) {
      if (event.type !== 'text-delta') onSessionEvent(event);
    },
    llm(client) {
      return {
        async complete(request: ModelRequest): Promise<ModelResponse> {
          const run = currentRun();
          const span = tracer.startSpan(
            `chat ${request.model}`,
            {
              kind: SpanKind.CLIENT,
              attributes: {
                'gen_ai.operation.name': 'chat',
                'gen_ai.request.model': request.model,
                'gen_ai.request.max_tokens': request.maxTokens,
                'gen_ai.request.temperature': request.temperature,
              },
            },
            run?.context ?? contexts.active(),
          );
          if (captureContent) span.setAttribute('gen_ai.input.messages', JSON.stringify(request.messages));
          try {
            const response = await client.complete(request);
            span.setAttribute('gen_ai.response.finish_reasons', [response.toolCalls.length > 0 ? 'tool_call' : 'stop']);
            if (response.usage) {
              span.setAttribute('gen_ai.usage.input_tokens', response.usage.promptTokens);
              span.setAttribute('gen_ai.usage.output_tokens', response.usage.completionTokens);
              if (response.usage.cachedPromptTokens !== undefined)
                span.setAttribute('gen_ai.usage.cache_read.input_tokens', response.usage.cachedPromptTokens);
            }
            if (captureContent)
              span.setAttribute(
                'gen_ai.output.messages',
                JSON.stringify([{ role: 'assistant', content: response.content, toolCalls: response.toolCalls }]),
              );
            return response;
          } catch (error) {
            const code = (error as { code?: unknown }).code;
            const type = typeof code === 'string' ? code : error instanceof Error ? error.name : 'Error';
            span.setAttribute('error.type', type);
            span.setStatus({ code: SpanStatusCode.ERROR, message: type });
            throw error;
          } finally {
            span.end();
          }
        },
      };
    },
    flush() {
      for (const sessionId of [...runs.keys()]) endRun(sessionId, 'unfinished');
    },
  };
}
