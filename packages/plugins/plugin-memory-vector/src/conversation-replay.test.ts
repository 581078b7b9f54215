// The recall bench's replay on a small conversation of our own: with a history window of 4 messages, the window
// alone holds none of the evidence and long-term memory brings it into the prompt, within its token budget; the
// replay measures each question's time to first token and recall time.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readLocomo, replayConversation } from './conversation-replay.case.js';
import memoryVectorPlugin from './index.js';

const fixture = fileURLToPath(new URL('./fixtures/small-conversation.json', import.meta.url));

describe('conversation replay (memory-recall bench)', () => {
  it('reads the LoCoMo shape, dates and all, leaving out adversarial questions', () => {
    const [conversation] = readLocomo(fixture);
    expect(conversation?.speakers).toEqual(['Ann', 'Bo']);
    expect(conversation?.sessions.map((session) => new Date(session.at).toISOString())).toEqual([
      '2025-03-03T10:00:00.000Z',
      '2025-04-20T19:30:00.000Z',
      '2025-06-02T09:15:00.000Z',
    ]);
    expect(conversation?.questions).toHaveLength(7);
  });

  it('brings evidence the history window no longer holds into the prompt', async () => {
    const [conversation] = readLocomo(fixture);
    const without = await replayConversation(conversation!, { historyLimit: 4, extra: [] });
    expect(without.evidence).toBe(7);
    expect(without.inPrompt).toBe(0);
    const withMemory = await replayConversation(conversation!, {
      historyLimit: 4,
      extra: [[memoryVectorPlugin, { maxTokens: 400 }]],
    });
    expect(withMemory.inPrompt).toBe(7);
    expect(Math.max(...withMemory.recalledTokens)).toBeLessThanOrEqual(400);
    // The latency figures of the bench: a first token for every question either way, and each recall's own time
    // (every question here recalls something).
    expect(without.ttftMs).toHaveLength(without.questions);
    expect(without.recallMs).toEqual([]);
    expect(withMemory.ttftMs).toHaveLength(withMemory.questions);
    expect(withMemory.recallMs).toHaveLength(withMemory.questions);
    for (const ms of [...withMemory.ttftMs, ...withMemory.recallMs]) expect(ms).toBeGreaterThan(0);
  });
});
