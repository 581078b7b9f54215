// Turns Chat Completions chunks into deltas and, at the end, the complete response: text and reasoning
// concatenated, tool calls assembled by index from fragments spread across chunks, usage and cached tokens.
import type { ToolCall } from '@aalis/schema-message';
import type { AssembledResponse, AssembledUsage, FinishReason, WireStreamEvent } from './stream-events.js';
import type { ChatCompletionChunk, WireToolCallDelta, WireUsage } from './wire-types.js';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

export class StreamAssembler {
  private content = '';
  private reasoning = '';
  private readonly calls: PartialCall[] = [];
  private rawFinishReason: string | undefined;
  private usage: WireUsage | undefined;
  private serverModel: string | undefined;

  /** Whether a finish reason has arrived (the model finished; only usage may follow). */
  get finished(): boolean {
    return this.rawFinishReason !== undefined;
  }

  /** Applies one chunk and appends the events it produces to `out`. Only the first choice is read. */
  push(chunk: ChatCompletionChunk, out: WireStreamEvent[]): void {
    if (chunk.model && this.serverModel === undefined) this.serverModel = chunk.model;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta) {
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) {
        this.reasoning += reasoning;
        out.push({ type: 'reasoning-delta', text: reasoning });
      }
      if (delta.content) {
        this.content += delta.content;
        out.push({ type: 'text-delta', text: delta.content });
      }
      if (delta.tool_calls) for (const call of delta.tool_calls) this.pushToolCall(call, out);
    }
    if (choice.finish_reason) this.rawFinishReason = choice.finish_reason;
  }

  private pushToolCall(delta: WireToolCallDelta, out: WireStreamEvent[]): void {
    const index = this.indexOf(delta);
    let call = this.calls[index];
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls[index] = call;
    }
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.name = delta.function.name;
    const fragment = delta.function?.arguments ?? '';
    call.arguments += fragment;
    const event: WireStreamEvent = { type: 'tool-call-delta', index, argumentsDelta: fragment };
    if (call.id) event.id = call.id;
    if (call.name) event.name = call.name;
    out.push(event);
  }

  /** Servers that omit `index` are matched by id, else the fragment continues the latest call. */
  private indexOf(delta: WireToolCallDelta): number {
    if (typeof delta.index === 'number') return delta.index;
    if (delta.id) {
      const known = this.calls.findIndex((call) => call?.id === delta.id);
      return known >= 0 ? known : this.calls.length;
    }
    return Math.max(0, this.calls.length - 1);
  }

  finish(): AssembledResponse {
    const toolCalls: ToolCall[] = [];
    this.calls.forEach((call, index) => {
      if (!call) return;
      toolCalls.push({
        // A call needs an id to be answered; a few local servers send none.
        id: call.id || `call_${index}`,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      });
    });
    const response: AssembledResponse = {
      content: this.content,
      toolCalls,
      usage: toUsage(this.usage),
      usageReported: this.usage !== undefined,
      finishReason: toFinishReason(this.rawFinishReason, toolCalls.length > 0),
    };
    if (this.reasoning) response.reasoningContent = this.reasoning;
    if (this.serverModel !== undefined) response.serverModel = this.serverModel;
    return response;
  }
}

function toUsage(usage: WireUsage | undefined): AssembledUsage {
  const result: AssembledUsage = {
    promptTokens: usage?.prompt_tokens ?? 0,
    completionTokens: usage?.completion_tokens ?? 0,
  };
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? usage?.prompt_cache_hit_tokens;
  if (typeof cached === 'number') result.cachedPromptTokens = cached;
  return result;
}

/** Tool calls with a plain `stop` (some servers) still mean the model wants its tools run. */
function toFinishReason(raw: string | undefined, hasToolCalls: boolean): FinishReason {
  if (raw === 'length') return 'length';
  if (raw === 'content_filter') return 'content-filter';
  if (hasToolCalls && (raw === undefined || raw === 'stop' || raw === 'tool_calls' || raw === 'function_call')) {
    return 'tool-calls';
  }
  if (raw === 'stop') return 'stop';
  if (raw === 'tool_calls' || raw === 'function_call') return 'tool-calls';
  return 'other';
}
