import { describe, expect, it } from 'vitest';
import type { Message } from './message.js';
import { validateProviderSequence } from './provider-sequence.js';

const call = (id: string): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, type: 'function', function: { name: 't', arguments: '{}' } }],
});

describe('validateProviderSequence', () => {
  it('accepts a call followed by its result', () => {
    expect(validateProviderSequence([call('a'), { role: 'tool', content: '', toolCallId: 'a' }])).toEqual([]);
  });
  it('flags an unanswered call', () => {
    const problems = validateProviderSequence([call('a'), { role: 'user', content: 'x' }]);
    expect(problems.map((p) => p.problem)).toEqual(['unanswered-tool-call']);
  });
  it('flags a result that answers nothing', () => {
    const problems = validateProviderSequence([{ role: 'tool', content: '', toolCallId: 'z' }]);
    expect(problems.map((p) => p.problem)).toEqual(['orphan-tool-result']);
  });
});
