// The llm service of the offline demo model: streams its deterministic reply in small pieces (tool-call arguments
// in two fragments, so consumers exercise delta assembly), checks the abort signal between pieces, and emits
// `llm:usage` with estimated token counts.
import {
  type ChatOptions,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamEvent,
  type LlmService,
  llmErrors,
  MODEL_NOT_LISTED,
  type ModelInfo,
  modelRef,
  usageEvent,
} from '@aalis/api-llm';
import type { Events, I18n } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import { planOfflineReply } from './offline-reply.js';

export const OFFLINE_MODEL_ID = 'demo';

export interface OfflineProviderOptions {
  instanceId: string;
  events: Pick<Events, 'emit'>;
  i18n: I18n;
  /** Characters per streamed text piece. */
  chunkSize?: number;
  /** Pause between pieces, to make demos look like a real stream (0 = none). */
  chunkDelayMs?: number;
}

export class OfflineProvider implements LlmService {
  private readonly model: ModelInfo;
  private readonly instanceId: string;
  private readonly events: Pick<Events, 'emit'>;
  private readonly i18n: I18n;
  private readonly chunkSize: number;
  private readonly chunkDelayMs: number;

  constructor({ instanceId, events, i18n, chunkSize = 8, chunkDelayMs = 0 }: OfflineProviderOptions) {
    this.instanceId = instanceId;
    this.events = events;
    this.i18n = i18n;
    this.chunkSize = chunkSize;
    this.chunkDelayMs = chunkDelayMs;
    this.model = {
      id: modelRef({ provider: instanceId, model: OFFLINE_MODEL_ID }),
      provider: instanceId,
      model: OFFLINE_MODEL_ID,
      name: i18n.t({ key: 'llm-offline.model.name' }),
      contextWindow: 32_768,
      maxOutputTokens: 4_096,
      capabilities: { tools: true, vision: false },
      thinking: 'not-adjustable',
      offline: true,
    };
  }

  models(): readonly ModelInfo[] {
    return [this.model];
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    let response: ChatResponse | undefined;
    for await (const event of this.chatStream(request, options))
      if (event.type === 'response') response = event.response;
    return response!;
  }

  async *chatStream(request: ChatRequest, { signal }: ChatOptions = {}): AsyncGenerator<ChatStreamEvent> {
    if (request.model !== undefined && request.model !== this.model.id) {
      throw llmErrors.AALIS_LLM_MODEL_NOT_FOUND({
        provider: this.instanceId,
        model: request.model,
        providerMessage: this.i18n.t(MODEL_NOT_LISTED),
        available: this.model.id,
      });
    }
    const started = performance.now();
    let outputStarted = false;
    const step = async () => {
      if (this.chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.chunkDelayMs));
      if (signal?.aborted) {
        throw llmErrors.AALIS_LLM_ABORTED({ model: this.model.id }, { details: { outputStarted } });
      }
      outputStarted = true;
    };
    if (signal?.aborted) throw llmErrors.AALIS_LLM_ABORTED({ model: this.model.id }, { details: { outputStarted } });
    const reply = planOfflineReply({
      messages: request.messages,
      tools: request.tools,
      toolChoice: request.toolChoice,
      t: (text) => this.i18n.t(text),
    });
    const response: ChatResponse = {
      content: '',
      toolCalls: [],
      usage: { promptTokens: estimateTokens(request.messages), completionTokens: 0 },
      finishReason: 'stop',
      model: this.model.id,
    };
    if (reply.kind === 'text') {
      for (const piece of pieces(reply.text, this.chunkSize)) {
        await step();
        yield { type: 'text-delta', text: piece };
      }
      response.content = reply.text;
      response.usage.completionTokens = countTokens(reply.text);
    } else {
      for (const [index, call] of reply.calls.entries()) {
        const args = call.function.arguments;
        const half = Math.ceil(args.length / 2);
        // In two deltas, as a streaming server splits arguments.
        for (const argumentsDelta of [args.slice(0, half), args.slice(half)]) {
          await step();
          yield { type: 'tool-call-delta', index, id: call.id, name: call.function.name, argumentsDelta };
        }
      }
      response.toolCalls = reply.calls;
      response.finishReason = 'tool-calls';
      response.usage.completionTokens = countTokens(JSON.stringify(reply.calls));
    }
    this.events.emit(
      'llm:usage',
      usageEvent({
        request,
        usage: response.usage,
        provider: this.instanceId,
        model: this.model.id,
        latencyMs: Math.round(performance.now() - started),
      }),
    );
    yield { type: 'response', response };
  }
}

function pieces(text: string, size: number): string[] {
  const characters = Array.from(text);
  const result: string[] = [];
  for (let at = 0; at < characters.length; at += size) result.push(characters.slice(at, at + size).join(''));
  return result;
}

/** A deterministic stand-in for a tokenizer: about four characters per token. */
function countTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function estimateTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) {
    total += 4 + countTokens(message.content);
    for (const call of message.toolCalls ?? []) total += countTokens(call.function.name + call.function.arguments);
  }
  return total;
}
