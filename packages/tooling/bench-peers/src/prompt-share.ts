// Prompt-cache share of a sequence of Chat Completions request bodies: per request, the tokens at its start that
// equal the previous request's prompt (what a provider's prefix cache can reuse), summed over requests 2…n and
// divided by their prompt tokens. Tokens are o200k (gpt-tokenizer), as packages/shared/context-budget/bench counts them.
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** The parts of a request body that make up its prompt (OpenAI Chat Completions shape). */
export interface ChatRequestBody {
  tools?: unknown;
  messages?: unknown;
}

interface WireMessage {
  role?: unknown;
  content?: unknown;
  reasoning_content?: unknown;
  tool_calls?: Array<{ id?: unknown; function?: { name?: unknown; arguments?: unknown } }>;
  tool_call_id?: unknown;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content)) {
    return content
      .map((part: { type?: unknown; text?: unknown }) =>
        part?.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part),
      )
      .join('');
  }
  return JSON.stringify(content);
}

/**
 * The prompt as a chat template renders it, one string per part: the tool definitions first, then each message as
 * its role, reasoning, text, tool calls and tool call id. Field order and JSON spelling of a message do not reach
 * the model, so they do not count; everything the model reads does.
 */
export function promptSegments(body: ChatRequestBody): string[] {
  const segments = [body.tools === undefined ? '' : JSON.stringify(body.tools)];
  for (const message of Array.isArray(body.messages) ? (body.messages as WireMessage[]) : []) {
    let text = `<|${String(message.role)}|>`;
    if (typeof message.reasoning_content === 'string') text += `<|think|>${message.reasoning_content}<|/think|>`;
    text += contentText(message.content);
    for (const call of message.tool_calls ?? []) {
      text += `<|call ${String(call.id)}|>${String(call.function?.name)}(${String(call.function?.arguments)})`;
    }
    if (message.tool_call_id !== undefined) text += `<|result of ${String(message.tool_call_id)}|>`;
    segments.push(text);
  }
  return segments;
}

export interface PromptShare {
  /** Requests 2…n: the first has no previous request to share with. */
  requests: number;
  /** Prompt tokens of requests 2…n. */
  promptTokens: number;
  /** Of those, the tokens that equal the start of the previous request's prompt. */
  prefixTokens: number;
  /** prefixTokens ÷ promptTokens (0 with fewer than two requests). */
  share: number;
}

/** Counts and compares prompts token by token; one instance caches the tokens of every segment it has seen. */
export class PromptTokenizer {
  readonly #cache = new Map<string, number[]>();

  tokens(segment: string): number[] {
    let tokens = this.#cache.get(segment);
    if (tokens === undefined) {
      tokens = encode(segment);
      this.#cache.set(segment, tokens);
    }
    return tokens;
  }

  /** Prompt tokens of one request body. */
  count(body: ChatRequestBody): number {
    return promptSegments(body).reduce((sum, segment) => sum + this.tokens(segment).length, 0);
  }

  /** How many tokens at the start of `current` equal the start of `previous`. */
  commonPrefix(previous: readonly string[], current: readonly string[]): number {
    let tokens = 0;
    for (let index = 0; index < current.length && index < previous.length; index++) {
      if (previous[index] === current[index]) {
        tokens += this.tokens(current[index]!).length;
        continue;
      }
      // The first part that differs still shares its leading tokens (a longer text with the same start).
      const before = this.tokens(previous[index]!);
      const after = this.tokens(current[index]!);
      let same = 0;
      while (same < before.length && same < after.length && before[same] === after[same]) same++;
      return tokens + same;
    }
    return tokens;
  }

  share(bodies: readonly ChatRequestBody[]): PromptShare {
    const prompts = bodies.map(promptSegments);
    let promptTokens = 0;
    let prefixTokens = 0;
    for (let index = 1; index < prompts.length; index++) {
      promptTokens += prompts[index]!.reduce((sum, segment) => sum + this.tokens(segment).length, 0);
      prefixTokens += this.commonPrefix(prompts[index - 1]!, prompts[index]!);
    }
    return {
      requests: Math.max(0, prompts.length - 1),
      promptTokens,
      prefixTokens,
      share: promptTokens === 0 ? 0 : prefixTokens / promptTokens,
    };
  }
}
