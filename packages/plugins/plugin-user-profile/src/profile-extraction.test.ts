// The extraction pass through the real agent and the scripted model server: after a turn, one call with its own
// purpose picks facts the speakers said about themselves into their profiles, bounded per person and per turn, in
// the background (the turn has ended before the call answers); a failing or malformed answer keeps nothing and logs
// a code, never the conversation; turns without a person are not sent.
import type { LlmUsageEvent } from '@aalis/api-llm';
import { type ProfileFact, userProfile } from '@aalis/api-user-profile';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import { errorReply, textReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import userProfilePlugin from './index.js';

let harness: Harness;
let usage: LlmUsageEvent[];
const ROOM = 'qq:group:900';

function say(userId: string, content: string) {
  return harness.agent.handleMessage({
    sessionId: ROOM,
    platform: 'qq',
    venue: '900',
    sender: { userId, displayName: userId === '111' ? 'Ann' : 'Bob' },
    content,
    triggerType: 'direct',
  });
}

function extractionCalls() {
  return usage.filter((event) => event.purpose === 'profile-extraction');
}

async function facts(person: string): Promise<ProfileFact[]> {
  return harness.booted.app.services.selected(userProfile)!.impl.facts(person);
}

const delayed = (text: string) => ({ type: 'json', content: text, delayMs: 150 }) as const;

beforeAll(async () => {
  harness = await startHarness({
    extra: [[userProfilePlugin, { extraction: { enabled: true, maxFactsPerPerson: 2, maxFactsPerTurn: 3 } }]],
  });
  usage = harness.booted.capture('llm:usage');
});

afterAll(async () => {
  await harness?.close();
});

describe('the extraction pass', () => {
  it('keeps what the speaker said about themselves, bounded, after the turn has ended', async () => {
    harness.server.enqueue(
      textReply('Nice to meet you, Ann!'),
      delayed(
        JSON.stringify({
          facts: [
            { speaker: 'P1', fact: 'is called Ann' },
            { speaker: 'P1', fact: '  likes   jasmine tea ' },
            { speaker: 'P1', fact: 'has a cat named Miso' },
            { speaker: 'P9', fact: 'someone nobody knows' },
            { speaker: 'P1', fact: 'x'.repeat(600) },
          ],
        }),
      ),
    );
    await say('111', 'Hi, I am Ann. I like jasmine tea and I have a cat named Miso.');
    // The turn is over; the extraction call has not answered yet.
    expect(extractionCalls()).toHaveLength(0);
    await vi.waitFor(() => expect(extractionCalls()).toHaveLength(1));
    await vi.waitFor(async () => expect(await facts('qq:111')).toHaveLength(2));
    expect((await facts('qq:111')).map(({ fact, source }) => ({ fact, source }))).toEqual([
      { fact: 'is called Ann', source: 'extraction' },
      { fact: 'likes jasmine tea', source: 'extraction' },
    ]);
    const request = harness.requests().at(-1)!;
    expect(request.messages).toHaveLength(2);
    expect(String(request.messages[0]?.content)).toContain('{"facts":[{"speaker":"P1","fact":"喜欢茉莉花茶"}]}');
    expect(String(request.messages[1]?.content)).toBe(
      [
        '已经记下的：',
        'P1 ("Ann"):',
        '',
        '这一轮：',
        'P1: "Hi, I am Ann. I like jasmine tea and I have a cat named Miso."',
        '助手: "Nice to meet you, Ann!"',
      ].join('\n'),
    );
    expect(extractionCalls()[0]).toMatchObject({ sessionId: ROOM, purpose: 'profile-extraction' });
  });

  it('shows what is known already, and keeps only new facts of the turn’s speakers', async () => {
    harness.server.enqueue(
      textReply('Hello Bob.'),
      textReply(
        'Sure! {"facts":[{"speaker":"P1","fact":"likes jasmine tea"},{"speaker":"P2","fact":"plays the cello"}]}',
      ),
    );
    await harness.agent.handleMessage({
      sessionId: ROOM,
      platform: 'qq',
      venue: '900',
      sender: { userId: '111', displayName: 'Ann' },
      content: 'This is my friend Bob.',
      triggerType: 'direct',
    });
    await vi.waitFor(() => expect(extractionCalls()).toHaveLength(2));
    const request = harness.requests().at(-1)!;
    expect(String(request.messages[1]?.content)).toContain('P1 ("Ann"):\n- "is called Ann"\n- "likes jasmine tea"');
    await vi.waitFor(async () => expect((await facts('qq:111')).length).toBe(2));
    // P2 is not a speaker of this turn: nothing is kept about anyone else.
    expect(await facts('qq:222')).toEqual([]);
  });

  it('keeps nothing from a failed or malformed answer and logs only a code', async () => {
    harness.server.enqueue(textReply('ok'), errorReply(500, 'upstream exploded'));
    await say('222', 'I am Bob and my password is hunter2');
    await vi.waitFor(() =>
      expect(harness.booted.logs.some((record) => record.message.startsWith('profile extraction failed'))).toBe(true),
    );
    const logged = JSON.stringify(harness.booted.logs.filter((record) => record.message.includes('extraction')));
    expect(logged).not.toContain('hunter2');
    expect(logged).toContain('AALIS_LLM_');

    harness.server.enqueue(textReply('ok'), textReply('I cannot answer in JSON today.'));
    await say('222', 'I play the cello');
    await vi.waitFor(() => expect(extractionCalls().length).toBeGreaterThanOrEqual(3));
    expect(await facts('qq:222')).toEqual([]);
  });

  it('sends nothing for a turn no person took part in', async () => {
    const before = harness.requests().length;
    harness.server.enqueue(textReply('Reminder sent.'));
    await harness.agent.handleMessage({
      sessionId: ROOM,
      platform: 'qq',
      venue: '900',
      sender: { userId: 'scheduler' },
      source: 'schedule',
      content: 'Remind the room about the meeting',
      triggerType: 'proactive',
    });
    expect(harness.requests().length).toBe(before + 1);
  });
});
