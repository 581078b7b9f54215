// Test-only: the Messages API's prompt-caching rules, as Anthropic documents them, for the emulating server. The
// prompt is a sequence of blocks (tools, then system, then each message's content blocks); a block with
// `cache_control` is a breakpoint. A breakpoint reads the longest prefix already cached that ends at it or at one of
// the 20 blocks before it, and writes its own prefix; at most 4 breakpoints; prefixes shorter than the model's
// minimum (1024 tokens; 2048 for Haiku models) are not cached; entries live 5 minutes from their last use.
import { createHash } from 'node:crypto';

export const LOOKBACK_BLOCKS = 20;
export const MAX_BREAKPOINTS = 4;
export const CACHE_TTL_MS = 5 * 60_000;

export interface CacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** A rough tokenizer, the same on both sides of a test: one token per 4 characters of the block's JSON. */
export function blockTokens(block: unknown): number {
  return Math.ceil(JSON.stringify(block).length / 4);
}

interface PromptBlock {
  block: Record<string, unknown>;
  breakpoint: boolean;
}

/** Flattens a Messages API request body into its cacheable blocks, in the order caching reads them. */
export function promptBlocks(body: Record<string, unknown>): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  const add = (block: Record<string, unknown>) => {
    const { cache_control: control, ...rest } = block;
    blocks.push({ block: rest, breakpoint: control !== undefined });
  };
  for (const tool of (body.tools as Record<string, unknown>[] | undefined) ?? []) add(tool);
  const system = body.system;
  if (typeof system === 'string') add({ type: 'text', text: system });
  else for (const block of (system as Record<string, unknown>[] | undefined) ?? []) add(block);
  for (const message of (body.messages as Array<{ role: string; content: unknown }> | undefined) ?? []) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of content as Record<string, unknown>[]) add({ role: message.role, ...block });
  }
  return blocks;
}

export class PromptCache {
  /** Prefix hash → expiry time. */
  private readonly entries = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.entries.size;
  }

  /** Counts a request's prompt tokens as the API would, reading and writing the cache. */
  use({ body, minimumTokens }: { body: Record<string, unknown>; minimumTokens: number }): CacheUsage {
    const blocks = promptBlocks(body);
    const tokensUpTo: number[] = [];
    const hashes: string[] = [];
    const hash = createHash('sha256');
    let total = 0;
    for (const { block } of blocks) {
      total += blockTokens(block);
      tokensUpTo.push(total);
      hash.update(JSON.stringify(block));
      hashes.push(hash.copy().digest('hex'));
    }
    const now = this.now();
    for (const [key, expiry] of this.entries) if (expiry <= now) this.entries.delete(key);
    const breakpoints = blocks.flatMap((entry, index) => (entry.breakpoint ? [index] : []));
    let read = -1;
    for (const position of breakpoints) {
      for (let index = position; index >= Math.max(0, position - LOOKBACK_BLOCKS); index--) {
        if (this.entries.has(hashes[index]!)) {
          read = Math.max(read, index);
          break;
        }
      }
    }
    const readTokens = read >= 0 ? tokensUpTo[read]! : 0;
    if (read >= 0) this.entries.set(hashes[read]!, now + CACHE_TTL_MS);
    let written = readTokens;
    for (const position of breakpoints) {
      if (tokensUpTo[position]! < minimumTokens || position <= read) continue;
      this.entries.set(hashes[position]!, now + CACHE_TTL_MS);
      written = Math.max(written, tokensUpTo[position]!);
    }
    return {
      input_tokens: total - written,
      cache_read_input_tokens: readTokens,
      cache_creation_input_tokens: written - readTokens,
    };
  }
}
