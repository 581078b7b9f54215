// Decodes the Messages API's SSE stream (message_start, content_block_start/delta/stop, message_delta,
// message_stop, ping, error) into the llm contract's deltas and the assembled response: text, thinking, and tool use
// whose input arrives as JSON text fragments (input_json_delta).
import type { ChatResponse, FinishReason, LlmUsage } from '@aalis/api-llm';
import type { StreamDelta, ToolCall } from '@aalis/schema-message';
import { SseParser, WireStreamError } from '@aalis/wire-openai';

type Assembled = Omit<ChatResponse, 'model'>;

interface ToolBlock {
  index: number;
  id: string;
  name: string;
  input: string;
}

const STOP_REASONS: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool-calls',
  refusal: 'content-filter',
};

interface StreamEvent {
  type?: string;
  index?: number;
  message?: { usage?: Record<string, number> };
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string };
  usage?: Record<string, number>;
  error?: { type?: string; message?: string };
}

export class MessagesStreamDecoder {
  private readonly parser: SseParser;
  private pending: StreamDelta[] = [];
  private failure: WireStreamError | undefined;
  private content = '';
  private reasoning = '';
  private readonly tools = new Map<number, ToolBlock>();
  private stopReason: string | undefined;
  private usage: Record<string, number> = {};
  private stopped = false;

  constructor({ onUnknownLine }: { onUnknownLine?: (line: string) => void } = {}) {
    this.parser = new SseParser({ onData: (data) => this.onData(data), onUnknownLine });
  }

  /** Feeds a piece of the body; returns the deltas it completed. */
  push(chunk: Buffer | string): StreamDelta[] {
    this.parser.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    return this.take();
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /** The body ended: the response, or a WireStreamError when the stream broke off before message_stop. */
  end(): Assembled {
    this.throwIfFailed();
    if (!this.stopped) throw new WireStreamError({ kind: 'truncated' });
    const toolCalls: ToolCall[] = [...this.tools.values()].map((tool) => ({
      id: tool.id,
      type: 'function',
      function: { name: tool.name, arguments: tool.input },
    }));
    const reason = STOP_REASONS[this.stopReason ?? ''] ?? 'other';
    const finishReason: FinishReason = toolCalls.length > 0 && reason !== 'length' ? 'tool-calls' : reason;
    const response: Assembled = { content: this.content, toolCalls, usage: this.usageOf(), finishReason };
    if (this.reasoning) response.reasoningContent = this.reasoning;
    return response;
  }

  private take(): StreamDelta[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  private usageOf(): LlmUsage {
    const read = this.usage.cache_read_input_tokens ?? 0;
    const written = this.usage.cache_creation_input_tokens ?? 0;
    // input_tokens counts only what is neither read from nor written to the cache: the prompt is all three.
    const usage: LlmUsage = {
      promptTokens: (this.usage.input_tokens ?? 0) + read + written,
      completionTokens: this.usage.output_tokens ?? 0,
    };
    if (this.usage.cache_read_input_tokens !== undefined) usage.cachedPromptTokens = read;
    if (this.usage.cache_creation_input_tokens !== undefined) usage.cacheCreationPromptTokens = written;
    return usage;
  }

  private onData(data: string): void {
    if (this.failure || this.stopped) return;
    let event: StreamEvent;
    try {
      event = JSON.parse(data) as StreamEvent;
    } catch {
      this.failure = new WireStreamError({ kind: 'malformed-data', line: data.slice(0, 200) });
      return;
    }
    switch (event.type) {
      case 'message_start':
        this.usage = { ...this.usage, ...event.message?.usage };
        return;
      case 'content_block_start': {
        const block = event.content_block;
        if (block?.type === 'tool_use' && event.index !== undefined) {
          const tool = { index: this.tools.size, id: block.id ?? '', name: block.name ?? '', input: '' };
          this.tools.set(event.index, tool);
          this.pending.push({
            type: 'tool-call-delta',
            index: tool.index,
            id: tool.id,
            name: tool.name,
            argumentsDelta: '',
          });
        }
        return;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta?.type === 'text_delta' && delta.text) {
          this.content += delta.text;
          this.pending.push({ type: 'text-delta', text: delta.text });
        } else if (delta?.type === 'thinking_delta' && delta.thinking) {
          this.reasoning += delta.thinking;
          this.pending.push({ type: 'reasoning-delta', text: delta.thinking });
        } else if (delta?.type === 'input_json_delta' && delta.partial_json) {
          const tool = this.tools.get(event.index ?? -1);
          if (!tool) return;
          tool.input += delta.partial_json;
          this.pending.push({
            type: 'tool-call-delta',
            index: tool.index,
            id: tool.id,
            argumentsDelta: delta.partial_json,
          });
        }
        return;
      }
      case 'content_block_stop': {
        // A tool called without arguments streams no JSON at all: its input is the empty object.
        const tool = this.tools.get(event.index ?? -1);
        if (tool && tool.input === '') {
          tool.input = '{}';
          this.pending.push({ type: 'tool-call-delta', index: tool.index, id: tool.id, argumentsDelta: '{}' });
        }
        return;
      }
      case 'message_delta':
        if (event.delta?.stop_reason) this.stopReason = event.delta.stop_reason;
        this.usage = { ...this.usage, ...event.usage };
        return;
      case 'message_stop':
        this.stopped = true;
        return;
      case 'error':
        this.failure = new WireStreamError({
          kind: 'error-event',
          error: {
            message: event.error?.message ?? '',
            ...(event.error?.type ? { type: event.error.type, code: event.error.type } : {}),
          },
        });
        return;
      default:
        return; // ping, and event types added later
    }
  }
}
