// The transcript the summarizer reads: one entry per conversation message, long texts cut, chunks within budget.
import type { Message } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { chunkEntries, type TranscriptLabels, transcriptEntries } from './transcript.js';

const labels: TranscriptLabels = {
  role: (message) => (message.role === 'tool' ? `tool ${message.name}` : message.role),
  calls: (calls) => `calls ${calls}`,
  attachments: (count) => `${count} attachment(s)`,
};

describe('transcriptEntries', () => {
  it('renders roles, tool calls, visible text of structured replies and attachments', () => {
    const messages: Message[] = [
      { role: 'user', content: 'look at this', attachments: [{ type: 'image', description: 'a cat' }] },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"cats"}' } }],
      },
      { role: 'tool', name: 'search', toolCallId: 'c1', content: 'many cats' },
      { role: 'assistant', content: '{"reply":"a cat"}', metadata: { visibleContent: 'a cat' } },
    ];
    expect(transcriptEntries({ messages, labels, entryMaxChars: 100 })).toEqual([
      'user: look at this [1 attachment(s): a cat]',
      'assistant: [calls search({"q":"cats"})]',
      'tool search: many cats',
      'assistant: a cat',
    ]);
  });

  it('cuts an entry longer than entryMaxChars', () => {
    const [entry] = transcriptEntries({
      messages: [{ role: 'user', content: 'x'.repeat(50) }],
      labels,
      entryMaxChars: 10,
    });
    expect(entry).toBe(`user: ${'x'.repeat(10)}…`);
  });
});

describe('chunkEntries', () => {
  it('groups entries so each chunk stays within the budget; an oversized entry stands alone', () => {
    const small = 'hello world';
    const big = 'word '.repeat(400);
    const chunks = chunkEntries({ entries: [small, small, big, small], budgetTokens: 50 });
    expect(chunks).toEqual([[small, small], [big], [small]]);
  });

  it('keeps everything in one chunk when it fits', () => {
    expect(chunkEntries({ entries: ['a', 'b', 'c'], budgetTokens: 1000 })).toEqual([['a', 'b', 'c']]);
  });
});
