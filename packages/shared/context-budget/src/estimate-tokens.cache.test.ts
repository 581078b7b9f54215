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

const {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateMessageTokensUncached,
  estimateTextTokens,
  TEXT_CACHE_GENERATION_TEXTS,
  TEXT_CACHE_MAX_CHARS,
  TEXT_CACHE_MIN_CHARS,
} = await import('./estimate-tokens.js');
// The reference counts with the real scan, not the counting one.
const { countTextFeatures, FEATURE_COUNT } =
  await vi.importActual<typeof import('./text-features.js')>('./text-features.js');
const { TOKEN_WEIGHTS } = await import('./token-weights.js');

/** The estimate counted from scratch, as estimate-tokens did before it kept texts. */
function countedTokens(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Float64Array(FEATURE_COUNT);
  countTextFeatures(text, counts);
  let total = 0;
  for (let index = 0; index < FEATURE_COUNT; index++)
    if (counts[index] !== 0) total += counts[index]! * TOKEN_WEIGHTS[index]!;
  return Math.max(1, Math.round(total));
}

let unique = 0;
/** A text no other test has estimated, of `length` characters. */
const freshText = (length: number) =>
  `${unique++}:${'mixed text 中文 and code() '.repeat(Math.ceil(length / 20))}`.slice(0, length);

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

  it('the uncached estimate is the same figure and leaves no cache entry behind', () => {
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

  it("a text is counted once: the history's own copy of a message and an equal text built again cost no scan", () => {
    const content = freshText(400);
    const reasoning = freshText(300);
    const original = { role: 'assistant' as const, content, reasoningContent: reasoning };
    let before = scans.count;
    const tokens = estimateMessageTokens(original);
    expect(scans.count - before).toBe(2);
    // The agent's history keeps a frozen copy of each appended message: a new object with the same strings.
    before = scans.count;
    expect(estimateMessageTokensUncached(Object.freeze({ ...original }))).toBe(tokens);
    // The system prompt is rebuilt every turn: an equal text in a new string.
    expect(estimateTextTokens([...content].join(''))).toBe(estimateTextTokens(content));
    expect(scans.count - before).toBe(0);
  });

  it('the kept figure is the counted one, and what is kept stays bounded', () => {
    const short = freshText(TEXT_CACHE_MIN_CHARS - 1);
    const long = freshText(TEXT_CACHE_MAX_CHARS + 1);
    for (const text of [short, long]) {
      const before = scans.count;
      expect(estimateTextTokens(text)).toBe(countedTokens(text));
      expect(estimateTextTokens(text)).toBe(countedTokens(text));
      // Too short to be worth a lookup, or too long to hold: counted each time.
      expect(scans.count - before).toBe(2);
    }
    const first = freshText(200);
    expect(estimateTextTokens(first)).toBe(countedTokens(first));
    for (let index = 0; index < 2 * TEXT_CACHE_GENERATION_TEXTS; index++) {
      const text = freshText(TEXT_CACHE_MIN_CHARS + (index % 300));
      expect(estimateTextTokens(text)).toBe(countedTokens(text));
    }
    // Two generations later the first text was let go: counted again, to the same figure.
    const before = scans.count;
    expect(estimateTextTokens(first)).toBe(countedTokens(first));
    expect(scans.count - before).toBe(1);
  });
});
