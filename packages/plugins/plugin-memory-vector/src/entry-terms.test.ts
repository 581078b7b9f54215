import { searchTerms } from '@aalis/util-text-search';
import { describe, expect, it } from 'vitest';
import { EntryTerms } from './entry-terms.js';
import { CONTEXT_CHARS, contextText, searchedText } from './recall-store.js';

const LONG_ENGLISH = `${'we walked along the harbour wall, counting the boats. '.repeat(8)}and then the rain came`;
const LONG_CHINESE = `${'我们沿着海港的堤岸散步，数着船只。'.repeat(25)}然后下雨了`;
const UNBROKEN = 'x'.repeat(CONTEXT_CHARS + 50);

describe('EntryTerms', () => {
  it('gives the terms of the speaker and words, and of the words said before, as tokenising each would', () => {
    const tokeniser = new EntryTerms();
    const texts = ['short one', LONG_ENGLISH, LONG_CHINESE, UNBROKEN, '混合 mixed 文本 text', ''];
    let before: string | undefined;
    for (const text of texts) {
      const entry = {
        sessionId: 's1',
        speaker: 'Ann Lee',
        text,
        ...(before === undefined ? {} : { context: contextText(before) }),
      };
      const { terms, context } = tokeniser.of(entry);
      expect(terms).toEqual(searchTerms(searchedText(entry)));
      expect(context).toEqual(before === undefined ? [] : searchTerms(contextText(before)));
      before = text;
    }
  });

  it('cuts a long message’s context after a space or punctuation mark within the limit', () => {
    const english = contextText(LONG_ENGLISH);
    expect(english.length).toBeLessThanOrEqual(CONTEXT_CHARS);
    expect(english.length).toBeGreaterThan(CONTEXT_CHARS / 2);
    expect(english).toMatch(/[\s\p{P}]$/u);
    expect(contextText(LONG_CHINESE).endsWith('。')).toBe(true);
    expect(contextText(UNBROKEN)).toHaveLength(CONTEXT_CHARS);
    expect(contextText('short')).toBe('short');
  });

  it('reads a context it did not see (another session’s, a restart) from its text', () => {
    const tokeniser = new EntryTerms();
    tokeniser.of({ sessionId: 's1', text: 'the blue flowerpot' });
    expect(tokeniser.of({ sessionId: 's2', text: 'ok', context: 'a spare key' }).context).toEqual([
      'a',
      'spare',
      'kei',
    ]);
    expect(tokeniser.of({ sessionId: 's1', text: 'ok', context: 'another text' }).context).toEqual(['anoth', 'text']);
  });
});
