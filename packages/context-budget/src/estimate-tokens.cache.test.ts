import { describe, expect, it, vi } from 'vitest';

// Counts the scans behind the estimator to check that unchanged messages are not estimated twice.
const scans = vi.hoisted(() => ({ count: 0 }));
vi.mock('./text-features.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./text-features.js')>();
  return {
    ...original,
    countTextFeatures: (text: string, counts: Float64Array) => {
      scans.count++;
      original.countTextFeatures(text, counts);
    },
  };
});

const { estimateMessagesTokens, estimateMessageTokens, estimateMessageTokensUncached } = await import(
  './estimate-tokens.js'
);

describe('estimateMessageTokens cache', () => {
  it('a turn does not re-estimate unchanged history: one scan per message object, until it changes', () => {
    const before = scans.count;
    const history = Array.from({ length: 50 }, (_, i) => ({ role: 'user' as const, content: `message ${i}` }));
    const first = estimateMessagesTokens(history);
    const scansAfterFirst = scans.count;
    expect(scansAfterFirst - before).toBe(50);
    expect(estimateMessagesTokens(history)).toBe(first);
    expect(scans.count).toBe(scansAfterFirst);
    history[3]!.content = 'edited in place';
    estimateMessagesTokens(history);
    expect(scans.count).toBe(scansAfterFirst + 1);
  });

  it('#15.1 the uncached estimate is the same figure and leaves no cache entry behind', () => {
    const message = {
      role: 'assistant' as const,
      content: 'an answer with 字 and words',
      reasoningContent: 'thinking about it',
      toolCalls: [{ id: 'c', type: 'function' as const, function: { name: 'lookup', arguments: '{"q":"x"}' } }],
    };
    const before = scans.count;
    const uncached = estimateMessageTokensUncached(message);
    const scansOfOne = scans.count - before;
    expect(estimateMessageTokens(message)).toBe(uncached);
    // The cached estimate had to scan again: the uncached one stored nothing.
    expect(scans.count - before).toBe(2 * scansOfOne);
    // Once cached, the uncached estimate reads the cache.
    expect(estimateMessageTokensUncached(message)).toBe(uncached);
    expect(scans.count - before).toBe(2 * scansOfOne);
  });
});
