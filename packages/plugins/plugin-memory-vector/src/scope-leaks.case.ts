// The scope rules tried from every side through the real agent, on each storage engine: private → group,
// person A → person B, child session → elsewhere. Run by scope-leaks.test.ts (SQLite and PostgreSQL).
import { type MemoryVectorService, memoryVector } from '@aalis/api-memory-vector';
import { sessionManager } from '@aalis/api-session-manager';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import type { IncomingMessage } from '@aalis/schema-message';
import { textReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import memoryVectorPlugin from './index.js';

export const A = '111';
export const B = '222';
const PROBE = 'purple elephant? greyhound Biscuit? walnut vault? cello?';

/** A message from Ann (A) or Bob (B) in a `qq:<chat>:<id>` session, addressing her. */
export function sayIn(
  harness: Harness,
  sessionId: string,
  userId: string,
  content: string,
  extra: Partial<IncomingMessage> = {},
) {
  const [platform = 'qq', , venue] = sessionId.split(':');
  return harness.agent.handleMessage({
    sessionId,
    platform,
    venue,
    sender: { userId, displayName: userId === A ? 'Ann' : 'Bob' },
    content,
    triggerType: 'direct',
    ...extra,
  });
}

/**
 * Two groups, Ann's and Bob's private chats and a child session of Ann's, with one thing said in each scope: a hint in
 * Ann's private chat, a dog by Ann and a cello by Bob in group 200, a vault code answered in the child session.
 */
export async function seedScopeChats(harness: Harness): Promise<void> {
  const sessions = harness.booted.app.services.selected(sessionManager)!.impl;
  for (const [chat, id] of [
    ['group', '100'],
    ['group', '200'],
    ['private', A],
    ['private', B],
  ] as const) {
    await sessions.ensure({
      id: `qq:${chat}:${id}`,
      kind: 'room',
      platform: 'qq',
      venue: id,
      originChat: { multiParty: chat === 'group' },
    });
  }
  await sessions.ensure({ id: 'qq:private:111/task', kind: 'child', platform: 'qq', parentId: `qq:private:${A}` });
  await sayIn(harness, `qq:private:${A}`, A, 'my password hint is purple elephant');
  await sayIn(harness, 'qq:group:200', A, 'I adopted a greyhound named Biscuit');
  await sayIn(harness, 'qq:group:200', B, 'I play the cello on weekends');
  harness.server.enqueue(textReply('the vault code is walnut'));
  await harness.agent.handleMessage({
    sessionId: 'qq:private:111/task',
    platform: 'qq',
    sender: {},
    source: 'subtask',
    content: 'look up the vault code',
  });
}

export function describeScopeLeaks(engine: string, storage: () => Promise<Record<string, unknown> | undefined>) {
  describe(`who may see what (${engine})`, () => {
    let harness: Harness;
    let memory: MemoryVectorService;

    const say = (sessionId: string, userId: string, content: string) => sayIn(harness, sessionId, userId, content);
    /** The recalled block of the turn, or undefined when it had none. */
    const ask = async (sessionId: string, userId: string, content: string) => {
      await memory.settled();
      await say(sessionId, userId, content);
      const block = harness
        .requests()
        .at(-1)
        ?.messages.find((message) => String(message.content).startsWith('[长期记忆]'));
      return block === undefined ? undefined : String(block.content);
    };

    beforeAll(async () => {
      const given = await storage();
      harness = await startHarness({ extra: [memoryVectorPlugin], ...(given ? { storage: given } : {}) });
      memory = harness.booted.app.services.selected(memoryVector)!.impl;
      await seedScopeChats(harness);
    });

    afterAll(async () => {
      await harness?.close();
    });

    it('a group hears nothing said in private, in a child session of a private chat, or by someone not speaking', async () => {
      const block = await ask('qq:group:100', B, PROBE);
      expect(block).toContain('I play the cello');
      expect(block).not.toContain('password hint');
      expect(block).not.toContain('vault code is walnut');
      expect(block).not.toContain('adopted a greyhound');
    });

    it('person B’s private chat gets nothing of person A’s, private or said in rooms', async () => {
      const block = await ask(`qq:private:${B}`, B, PROBE);
      expect(block).toContain('I play the cello');
      expect(block).not.toContain('password hint');
      expect(block).not.toContain('vault code is walnut');
      expect(block).not.toContain('adopted a greyhound');
    });

    it('a person’s own private chat recalls their private words, their child sessions and their own words in rooms', async () => {
      const block = await ask(`qq:private:${A}`, A, 'greyhound Biscuit? walnut vault? cello?');
      expect(block).toContain('adopted a greyhound');
      expect(block).toContain('vault code is walnut');
      expect(block).not.toContain('play the cello');
    });

    it('a person’s own words from another room follow them into a group, without that room’s other talk', async () => {
      const block = await ask('qq:group:100', A, 'how is the greyhound Biscuit? and the cello?');
      expect(block).toContain('"I adopted a greyhound named Biscuit"');
      expect(block).not.toContain('play the cello');
    });
  });
}
