// The summary request that starts with the conversation's latest prompt (cache-sharing-request.ts).
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { cacheSharingRequest, shownStretch } from './cache-sharing-request.js';
import type { ConversationPrompt } from './conversation-prompts.js';
import { transcriptLabels } from './summarize.js';

const t = (key: string, params?: Record<string, string | number>) =>
  params ? `${key} ${JSON.stringify(params)}` : key;
const block = (summary: string) => `[S]\n${summary}`;
const turnOf = (turnId: string) => ({ [WellKnownMetadataKeys.TurnId]: turnId });

// Stored history: two earlier turns, then turn t3 with a tool round and its final reply.
const stored: Message[] = [
  { id: '1', role: 'user', content: 'first question', metadata: turnOf('t1') },
  { id: '2', role: 'assistant', content: 'first answer', metadata: turnOf('t1') },
  { id: '3', role: 'user', content: 'second question', metadata: turnOf('t2') },
  { id: '4', role: 'assistant', content: 'second answer', metadata: turnOf('t2') },
  { id: '5', role: 'user', content: 'third question', metadata: turnOf('t3') },
  {
    id: '6',
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c1', type: 'function', function: { name: 'clock', arguments: '{}' } }],
    metadata: turnOf('t3'),
  },
  { id: '7', role: 'tool', content: '12:00', toolCallId: 'c1', name: 'clock', metadata: turnOf('t3') },
  { id: '8', role: 'assistant', content: 'it is noon', metadata: turnOf('t3') },
];

/** The last call of t3 as the agent sent it: head, history from `from` on (stored copies), the turn's own copies. */
function promptOf(from: number, head: Message[] = []): ConversationPrompt {
  return {
    turnId: 't3',
    model: 'test/m',
    tools: [{ name: 'clock', parameters: { type: 'object' } }],
    messages: [
      { role: 'system', content: 'You are Aalis.' },
      ...head,
      ...stored.slice(from, 4),
      { role: 'system', content: '[now] 12:00' },
      { role: 'user', content: 'third question' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'clock', arguments: '{}' } }],
      },
      { role: 'tool', content: '12:00', toolCallId: 'c1', name: 'clock' },
    ],
  };
}

const plan = (prompt: ConversationPrompt, options: { previous?: string; contextWindow?: number } = {}) =>
  cacheSharingRequest({
    prompt,
    active: stored,
    previous: options.previous,
    summaryBlock: block,
    labels: transcriptLabels(t),
    entryMaxChars: 4000,
    t,
    contextWindow: options.contextWindow ?? 32_000,
    maxOutput: 1024,
  });

describe('cacheSharingRequest', () => {
  it('starts with the conversation’s prompt, the same message objects and tools, and asks for the summary last', () => {
    const prompt = promptOf(0);
    const result = plan(prompt);
    if (result.status !== 'planned') throw new Error(result.reason);
    expect(result.tools).toBe(prompt.tools);
    expect(result.messages.slice(0, -1)).toHaveLength(prompt.messages.length);
    for (const [index, message] of result.messages.slice(0, -1).entries()) expect(message).toBe(prompt.messages[index]);
    const ask = result.messages.at(-1)!;
    expect(ask.role).toBe('user');
    expect(ask.content.startsWith('memorySummary.prompt.pause\n\nmemorySummary.prompt.system')).toBe(true);
  });

  it('what was stored after the prompt (the final reply) goes in as the later transcript', () => {
    const result = plan(promptOf(0));
    if (result.status !== 'planned') throw new Error(result.reason);
    const ask = result.messages.at(-1)!.content;
    expect(ask).toContain('memorySummary.prompt.later\nmemorySummary.role.assistant: it is noon');
    expect(ask).not.toContain('memorySummary.prompt.earlier');
    expect(ask).not.toContain('first question');
  });

  it('history the prompt no longer showed (window or trimming) goes in as the earlier transcript', () => {
    const result = plan(promptOf(2));
    if (result.status !== 'planned') throw new Error(result.reason);
    const ask = result.messages.at(-1)!.content;
    expect(ask).toContain(
      'memorySummary.prompt.earlier\nmemorySummary.role.user: first question\nmemorySummary.role.assistant: first answer',
    );
    expect(ask).not.toContain('second question');
  });

  it('the previous summary: named when the prompt’s head shows it, written out when it does not', () => {
    const shown = plan(promptOf(0, [{ role: 'system', content: block('old summary') }]), { previous: 'old summary' });
    if (shown.status !== 'planned') throw new Error(shown.reason);
    expect(shown.messages.at(-1)!.content).toContain(
      'memorySummary.prompt.previousShown {"header":"memorySummary.header"}',
    );
    expect(shown.messages.at(-1)!.content).not.toContain('old summary');

    const missing = plan(promptOf(0), { previous: 'old summary' });
    if (missing.status !== 'planned') throw new Error(missing.reason);
    expect(missing.messages.at(-1)!.content).toContain('memorySummary.prompt.previous\nold summary');
  });

  it('unusable: a prompt showing messages that are no longer active (from before the last compaction)', () => {
    const stale = promptOf(0);
    const result = cacheSharingRequest({
      prompt: stale,
      active: stored.slice(4),
      previous: undefined,
      summaryBlock: block,
      labels: transcriptLabels(t),
      entryMaxChars: 4000,
      t,
      contextWindow: 32_000,
      maxOutput: 1024,
    });
    expect(result).toMatchObject({ status: 'unusable', reason: expect.stringContaining('no longer') });
  });

  it('unusable: a gap inside the stretch the prompt shows', () => {
    const prompt = promptOf(0);
    const gap: ConversationPrompt = { ...prompt, messages: prompt.messages.filter((message) => message.id !== '2') };
    expect(shownStretch(gap, stored)).toEqual({
      reason: 'the prompt leaves out messages inside the stretch of history it shows',
    });
    expect(plan(gap).status).toBe('unusable');
  });

  it('a tool group the prompt no longer shows at the end (trimming folded it) goes in as the later transcript', () => {
    const prompt = promptOf(0);
    const folded: ConversationPrompt = {
      ...prompt,
      messages: [...prompt.messages.slice(0, -2), { role: 'assistant', content: '[历史工具调用] clock → 12:00' }],
    };
    expect(shownStretch(folded, stored)).toEqual({ first: 0, end: 5 });
    const result = plan(folded);
    if (result.status !== 'planned') throw new Error(result.reason);
    expect(result.messages.at(-1)!.content).toContain('memorySummary.role.tool {"name":"clock"}: 12:00');
  });

  it('unusable: a prompt that shows none of the active history', () => {
    const other: ConversationPrompt = { ...promptOf(4), turnId: 'elsewhere' };
    expect(plan(other)).toMatchObject({ status: 'unusable', reason: expect.stringContaining('none') });
  });

  it('unusable: a request that would not fit the model with the summary’s output', () => {
    expect(plan(promptOf(0), { contextWindow: 1600 })).toMatchObject({
      status: 'unusable',
      reason: expect.stringContaining('would not fit'),
    });
    expect(plan(promptOf(0), { contextWindow: 2400 }).status).toBe('planned');
  });
});
