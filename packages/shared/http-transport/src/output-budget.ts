// How far past the request's max_tokens a response may run before it is cut. A broken server (or proxy) that keeps
// streaming would otherwise grow the assembled reply, and the process, without bound. The limits are generous
// multiples — a token is about four characters, and no tokenizer has tokens near 32 — so no real reply reaches them.
import type { WireStreamEvent } from '@aalis/wire-openai';

/** Characters of text and tool-call arguments allowed per requested output token. */
const CHARACTERS_PER_TOKEN_LIMIT = 32;
/** Reasoning may run past max_tokens on some servers (DeepSeek's chain of thought is counted apart): this much more. */
const REASONING_ALLOWANCE_TOKENS = 32_768;
/** Bytes of response body allowed per requested output token (an SSE chunk is about 200 bytes), plus a floor. */
const BODY_BYTES_PER_TOKEN_LIMIT = 1_024;
const BODY_BYTES_FLOOR = 16 * 1_048_576;

export type OverlongPart = 'output' | 'reasoning' | 'body';

/** The response ran far past what was asked for; the call is cut. */
export class OverlongResponseError extends Error {
  readonly part: OverlongPart;
  readonly limit: number;
  readonly maxTokens: number;
  constructor({ part, limit, maxTokens }: { part: OverlongPart; limit: number; maxTokens: number }) {
    super(`the response ran past ${limit} ${part === 'body' ? 'bytes' : 'characters'} of ${part}`);
    this.name = 'OverlongResponseError';
    this.part = part;
    this.limit = limit;
    this.maxTokens = maxTokens;
  }
}

/** Counts what a response delivered against limits derived from the request's max_tokens. */
export class OutputBudget {
  readonly outputChars: number;
  readonly reasoningChars: number;
  readonly bodyBytes: number;
  private output = 0;
  private reasoning = 0;
  private bytes = 0;

  constructor(readonly maxTokens: number) {
    this.outputChars = maxTokens * CHARACTERS_PER_TOKEN_LIMIT;
    this.reasoningChars = (maxTokens + REASONING_ALLOWANCE_TOKENS) * CHARACTERS_PER_TOKEN_LIMIT;
    this.bodyBytes = BODY_BYTES_FLOOR + maxTokens * BODY_BYTES_PER_TOKEN_LIMIT;
  }

  /** A piece of the body arrived (counted before it is decoded, so one endless line is cut too). */
  received(byteLength: number): void {
    this.bytes += byteLength;
    if (this.bytes > this.bodyBytes) this.cut('body', this.bodyBytes);
  }

  /** An event is about to be handed out. */
  deliver(event: WireStreamEvent): void {
    if (event.type === 'text-delta') this.output += event.text.length;
    else if (event.type === 'tool-call-delta') this.output += event.argumentsDelta?.length ?? 0;
    else if (event.type === 'reasoning-delta') this.reasoning += event.text.length;
    if (this.output > this.outputChars) this.cut('output', this.outputChars);
    if (this.reasoning > this.reasoningChars) this.cut('reasoning', this.reasoningChars);
  }

  private cut(part: OverlongPart, limit: number): never {
    throw new OverlongResponseError({ part, limit, maxTokens: this.maxTokens });
  }
}
