// The emulated caching rules themselves: a breakpoint writes its prefix, a later request reads the longest cached
// prefix within 20 blocks before one of its breakpoints, short prefixes are not cached, entries expire.
import { describe, expect, it } from 'vitest';
import { PromptCache } from './anthropic-prompt-cache.js';
import { checkMessagesRequest } from './check-messages-request.js';

const long = 'x'.repeat(8_000); // ≈ 2 000 tokens
const text = (value: string, mark = false) => ({
  type: 'text',
  text: value,
  ...(mark ? { cache_control: { type: 'ephemeral' } } : {}),
});
const body = (messages: Array<{ role: string; content: unknown[] }>, system = [text(long, true)]) => ({
  model: 'm',
  max_tokens: 10,
  system,
  messages,
});

describe('PromptCache (the Messages API caching rules)', () => {
  it('writes at the breakpoint, then reads that prefix from a request that extends it', () => {
    const cache = new PromptCache();
    const first = cache.use({ body: body([{ role: 'user', content: [text('one', true)] }]), minimumTokens: 1024 });
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1_900);
    expect(first.input_tokens).toBe(0);
    const messages = [
      { role: 'user', content: [text('one')] },
      { role: 'assistant', content: [text('reply')] },
      { role: 'user', content: [text('two', true)] },
    ];
    const second = cache.use({ body: body(messages), minimumTokens: 1024 });
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it('finds a cached prefix at most 20 blocks before a breakpoint', () => {
    const cache = new PromptCache();
    cache.use({ body: body([{ role: 'user', content: [text('start', true)] }]), minimumTokens: 1024 });
    const blocks = (count: number) => [
      text('start'),
      ...Array.from({ length: count }, (_, index) => text(`b${index}`)),
      text('end', true),
    ];
    // 'start' is block 1 (after the system block); the breakpoint 21 blocks later still finds it.
    expect(
      cache.use({ body: body([{ role: 'user', content: blocks(19) }]), minimumTokens: 1024 }).cache_read_input_tokens,
    ).toBeGreaterThan(0);
    const far = new PromptCache();
    far.use({ body: body([{ role: 'user', content: [text('start', true)] }]), minimumTokens: 1024 });
    expect(
      far.use({ body: body([{ role: 'user', content: blocks(40) }], [text(long)]), minimumTokens: 1024 })
        .cache_read_input_tokens,
    ).toBe(0);
  });

  it('caches nothing below the minimum and forgets entries after five minutes', () => {
    let now = 0;
    const cache = new PromptCache(() => now);
    const short = body([{ role: 'user', content: [text('hi', true)] }], [text('short system', true)]);
    expect(cache.use({ body: short, minimumTokens: 1024 }).cache_creation_input_tokens).toBe(0);
    const request = body([{ role: 'user', content: [text('hi', true)] }]);
    cache.use({ body: request, minimumTokens: 1024 });
    now += 4 * 60_000;
    expect(cache.use({ body: request, minimumTokens: 1024 }).cache_read_input_tokens).toBeGreaterThan(0);
    now += 5 * 60_000 + 1;
    expect(cache.use({ body: request, minimumTokens: 1024 }).cache_read_input_tokens).toBe(0);
  });

  it('the request check refuses more than four breakpoints and unanswered tool uses', () => {
    const five = body([{ role: 'user', content: [1, 2, 3, 4].map((index) => text(`p${index}`, true)) }]);
    expect(checkMessagesRequest(five)).toContain('A maximum of 4 blocks with cache_control');
    expect(
      checkMessagesRequest(
        body([
          { role: 'user', content: [text('go')] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] },
          { role: 'user', content: [text('no result')] },
        ]),
      ),
    ).toContain('t1');
  });
});
