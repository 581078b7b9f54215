// The conformance suite every memory backend runs: `describeMemoryConformance('sqlite', createFixture)`.
// The fixture boots the backend (on a fresh data directory per fixture) with or without the hooks service.
import type { HooksService } from '@aalis/api-hooks';
import { AalisError, type EventMap, type Events } from '@aalis/core';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from './memory-service.js';

export interface MemoryFixture {
  memory: MemoryService;
  /** The App's events, to observe 'memory:*' events. */
  events: Events;
  /** The hooks service, when the fixture was created with `hooks: true`. */
  hooks?: HooksService;
  /** Stops this App and starts a new one on the same storage; the old fixture is unusable afterwards. */
  restart(): Promise<MemoryFixture>;
  /** Stops the App and removes the storage. */
  dispose(): Promise<void>;
}

export type CreateMemoryFixture = (options: { hooks: boolean }) => Promise<MemoryFixture>;

const user = (content: string, turnId?: string): Message => ({
  role: 'user',
  content,
  ...(turnId ? { metadata: { [WellKnownMetadataKeys.TurnId]: turnId } } : {}),
});
const assistant = (content: string, turnId?: string): Message => ({
  ...user(content, turnId),
  role: 'assistant',
});
const marker = (content = 'marker'): Message => ({ role: 'system', content, kind: 'event-marker' });
const divider = (summary = 'summary'): Message => ({
  role: 'system',
  content: '',
  kind: 'compression-divider',
  metadata: { [WellKnownMetadataKeys.Summary]: summary },
});
const contents = (messages: readonly Message[]) => messages.map((message) => message.content);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return AalisError.isInstance(error) ? error.code : `not coded: ${String(error)}`;
  }
}

export function describeMemoryConformance(name: string, createFixture: CreateMemoryFixture): void {
  describe(`memory conformance: ${name}`, () => {
    let current: MemoryFixture | undefined;
    const open = async (options = { hooks: false }) => {
      current = await createFixture(options);
      return current;
    };
    afterEach(async () => {
      await current?.dispose();
      current = undefined;
    });

    describe('append', () => {
      it('returns the messages as stored, with string ids and timestamps, in order', async () => {
        const { memory } = await open();
        const stored = await memory.append('s1', [user('a'), { ...assistant('b'), timestamp: 42 }]);
        expect(contents(stored)).toEqual(['a', 'b']);
        expect(stored.every((message) => typeof message.id === 'string' && message.id.length > 0)).toBe(true);
        expect(new Set(stored.map((message) => message.id)).size).toBe(2);
        expect(typeof stored[0]!.timestamp).toBe('number');
        expect(stored[1]!.timestamp).toBe(42);
        expect(await memory.read('s1')).toEqual(stored);
      });

      it('replaces an id given by the caller', async () => {
        const { memory } = await open();
        const [stored] = await memory.append('s1', [{ ...user('a'), id: 'mine' }]);
        expect(stored!.id).not.toBe('mine');
      });

      it('keeps every field of a message', async () => {
        const { memory } = await open();
        const message: Message = {
          role: 'assistant',
          content: 'calling',
          toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } }],
          reasoningContent: 'thinking',
          metadata: { [WellKnownMetadataKeys.TurnId]: 't1', nested: { list: [1, 'two', null] } },
          attachments: [{ type: 'image', url: 'https://example.test/a.png', mimeType: 'image/png' }],
          timestamp: 1,
        };
        const result: Message = { role: 'tool', content: 'ok', toolCallId: 'c1', name: 'search', timestamp: 2 };
        const stored = await memory.append('s1', [message, result]);
        expect(stored).toEqual([
          { ...message, id: stored[0]!.id },
          { ...result, id: stored[1]!.id },
        ]);
        expect(await memory.readAll('s1')).toEqual(stored);
      });

      it('keeps sessions apart', async () => {
        const { memory } = await open();
        await memory.append('a', [user('in a')]);
        await memory.append('b', [user('in b')]);
        expect(contents(await memory.read('a'))).toEqual(['in a']);
        expect(contents(await memory.read('b'))).toEqual(['in b']);
      });

      it("emits 'memory:appended' with the stored messages", async () => {
        const { memory, events } = await open();
        const seen: EventMap['memory:appended'][] = [];
        events.on('memory:appended', (payload) => {
          seen.push(payload);
        });
        const stored = await memory.append('s1', [user('a')]);
        expect(seen).toEqual([{ sessionId: 's1', messages: stored }]);
      });

      it('appending nothing writes nothing and returns []', async () => {
        const { memory } = await open();
        expect(await memory.append('s1', [])).toEqual([]);
        expect(await memory.readAll('s1')).toEqual([]);
      });
    });

    describe('bad input', () => {
      it('refuses a message with an invalid role, writing nothing of the batch', async () => {
        const { memory } = await open();
        const bad = { role: 'narrator', content: 'x' } as unknown as Message;
        expect(await codeOf(memory.append('s1', [user('fine'), bad]))).toBe('AALIS_MEMORY_MESSAGE_INVALID');
        expect(await memory.readAll('s1')).toEqual([]);
      });

      it('refuses non-string content, writing nothing', async () => {
        const { memory } = await open();
        const bad = { role: 'user', content: 42 } as unknown as Message;
        expect(await codeOf(memory.append('s1', [bad]))).toBe('AALIS_MEMORY_MESSAGE_INVALID');
        expect(await memory.countHistory('s1')).toBe(0);
      });

      it('refuses malformed tool calls and metadata', async () => {
        const { memory } = await open();
        const badCall = { role: 'assistant', content: '', toolCalls: [{ id: 1 }] } as unknown as Message;
        const badMetadata = { role: 'user', content: '', metadata: 'x' } as unknown as Message;
        expect(await codeOf(memory.append('s1', [badCall]))).toBe('AALIS_MEMORY_MESSAGE_INVALID');
        expect(await codeOf(memory.append('s1', [badMetadata]))).toBe('AALIS_MEMORY_MESSAGE_INVALID');
      });

      it('names the message and the field in the error', async () => {
        const { memory } = await open();
        const bad = { role: 'user', content: null } as unknown as Message;
        const error = await memory.append('s1', [user('ok'), bad]).catch((caught: unknown) => caught);
        expect(AalisError.isInstance(error)).toBe(true);
        expect((error as AalisError).details).toMatchObject({ index: 1, field: 'content', sessionId: 's1' });
      });

      it('refuses an empty session id and a bad start index', async () => {
        const { memory } = await open();
        expect(await codeOf(memory.append('', [user('a')]))).toBe('AALIS_MEMORY_ARGUMENT_INVALID');
        expect(await codeOf(memory.read('s1', { from: -1 }))).toBe('AALIS_MEMORY_ARGUMENT_INVALID');
        expect(await codeOf(memory.read('s1', { from: 1.5 }))).toBe('AALIS_MEMORY_ARGUMENT_INVALID');
        expect(await codeOf(memory.deleteByTurn('s1', ''))).toBe('AALIS_MEMORY_ARGUMENT_INVALID');
      });

      it('answers an unknown session with empty results', async () => {
        const { memory } = await open();
        expect(await memory.read('nobody')).toEqual([]);
        expect(await memory.read('nobody', { from: 3, includeControl: true })).toEqual([]);
        expect(await memory.readAll('nobody')).toEqual([]);
        expect(await memory.countHistory('nobody')).toBe(0);
        expect(await memory.activeStart('nobody')).toBe(0);
        expect(await memory.deleteByTurn('nobody', 't')).toBe(0);
      });
    });

    describe('active history', () => {
      it('is what follows the last compression divider', async () => {
        const { memory } = await open();
        await memory.append('s1', [user('old 1'), assistant('old 2'), divider('first')]);
        await memory.append('s1', [user('mid'), divider('second'), user('new 1')]);
        await memory.append('s1', [assistant('new 2')]);
        expect(contents(await memory.read('s1'))).toEqual(['new 1', 'new 2']);
        expect(await memory.countHistory('s1')).toBe(2);
        expect(await memory.activeStart('s1')).toBe(5);
        expect(contents(await memory.readAll('s1'))).toEqual(['old 1', 'old 2', '', 'mid', '', 'new 1', 'new 2']);
      });

      it('activeDivider is the divider that starts the active history, as readAll has it', async () => {
        const { memory } = await open();
        expect(await memory.activeDivider('s1')).toBeUndefined();
        await memory.append('s1', [user('old 1'), divider('first'), user('mid')]);
        expect(await memory.activeDivider('s1')).toEqual((await memory.readAll('s1'))[1]);
        await memory.append('s1', [marker(), divider('second'), user('new')]);
        const all = await memory.readAll('s1');
        const start = await memory.activeStart('s1');
        expect(await memory.activeDivider('s1')).toEqual(all[start - 1]);
        expect((await memory.activeDivider('s1'))?.metadata?.[WellKnownMetadataKeys.Summary]).toBe('second');
        // A rolled-back divider: the one before starts the active history again.
        await memory.append('s1', [
          {
            ...divider('third'),
            metadata: { [WellKnownMetadataKeys.Summary]: 'third', [WellKnownMetadataKeys.TurnId]: 't9' },
          },
        ]);
        expect((await memory.activeDivider('s1'))?.metadata?.[WellKnownMetadataKeys.Summary]).toBe('third');
        await memory.deleteByTurn('s1', 't9');
        expect((await memory.activeDivider('s1'))?.metadata?.[WellKnownMetadataKeys.Summary]).toBe('second');
        await memory.clear('s1');
        expect(await memory.activeDivider('s1')).toBeUndefined();
        expect(await memory.activeDivider('nobody')).toBeUndefined();
      });

      it('is empty right after a divider', async () => {
        const { memory } = await open();
        await memory.append('s1', [user('a'), divider()]);
        expect(await memory.read('s1')).toEqual([]);
        expect(await memory.countHistory('s1')).toBe(0);
        expect(await memory.activeStart('s1')).toBe(2);
      });

      it('countHistory excludes control kinds and counts turn-stopped', async () => {
        const { memory } = await open();
        await memory.append('s1', [
          user('a'),
          marker(),
          assistant('b'),
          { role: 'system', content: '[已停下]', kind: 'turn-stopped' },
          marker(),
        ]);
        expect(await memory.countHistory('s1')).toBe(3);
        expect(contents(await memory.read('s1'))).toEqual(['a', 'b', '[已停下]']);
        expect(contents(await memory.read('s1', { includeControl: true }))).toEqual([
          'a',
          'marker',
          'b',
          '[已停下]',
          'marker',
        ]);
      });

      it('does not return the divider itself, even with includeControl', async () => {
        const { memory } = await open();
        await memory.append('s1', [user('a'), divider(), marker('after'), user('b')]);
        expect(contents(await memory.read('s1', { includeControl: true }))).toEqual(['after', 'b']);
      });
    });

    describe('read from a start index', () => {
      const seed = async (memory: MemoryService) => {
        await memory.append('s1', [user('archived'), divider()]);
        await memory.append('s1', [marker('m0'), user('c0'), assistant('c1'), marker('m1'), user('c2'), user('c3')]);
        await memory.append('s1', [marker('m2')]);
      };

      it('skips that many conversation messages of the active history', async () => {
        const { memory } = await open();
        await seed(memory);
        expect(contents(await memory.read('s1', { from: 0 }))).toEqual(['c0', 'c1', 'c2', 'c3']);
        expect(contents(await memory.read('s1', { from: 1 }))).toEqual(['c1', 'c2', 'c3']);
        expect(contents(await memory.read('s1', { from: 3 }))).toEqual(['c3']);
        expect(contents(await memory.read('s1', { from: 4 }))).toEqual([]);
        expect(contents(await memory.read('s1', { from: 99 }))).toEqual([]);
      });

      it('with includeControl, keeps the control messages after the skipped ones', async () => {
        const { memory } = await open();
        await seed(memory);
        expect(contents(await memory.read('s1', { from: 0, includeControl: true }))).toEqual([
          'm0',
          'c0',
          'c1',
          'm1',
          'c2',
          'c3',
          'm2',
        ]);
        expect(contents(await memory.read('s1', { from: 2, includeControl: true }))).toEqual(['m1', 'c2', 'c3', 'm2']);
        expect(contents(await memory.read('s1', { from: 4, includeControl: true }))).toEqual(['m2']);
      });

      it('equals slicing the whole active history (countHistory - n gives the last n)', async () => {
        const { memory } = await open();
        const batch = Array.from({ length: 30 }, (_, index) =>
          index % 7 === 3 ? marker(`m${index}`) : user(`${index}`),
        );
        await memory.append('s1', [user('gone'), divider(), ...batch]);
        const all = await memory.read('s1');
        const count = await memory.countHistory('s1');
        expect(count).toBe(all.length);
        for (const from of [0, 1, 5, count - 10, count - 1, count]) {
          expect(await memory.read('s1', { from })).toEqual(all.slice(from));
        }
      });
    });

    describe('supersedeTurns', () => {
      const mark = { id: 'r1', at: 1000, action: 'regenerate' };
      it('takes the turns out of read and countHistory, keeps them in readAll marked, and counts on after them', async () => {
        const { memory } = await open();
        await memory.append('s1', [user('q1', 't1'), assistant('a1', 't1')]);
        await memory.append('s1', [user('q2', 't2'), marker(), assistant('a2', 't2')]);
        await memory.append('s1', [
          { role: 'system', content: '', kind: 'event-marker', metadata: { [WellKnownMetadataKeys.TurnId]: 't3' } },
          user('q3', 't3'),
        ]);
        await memory.append('s2', [user('other', 't2')]);
        expect(await memory.supersedeTurns('s1', ['t2', 't3'], mark)).toBe(4);
        expect(contents(await memory.read('s1'))).toEqual(['q1', 'a1']);
        // The untagged marker of turn 2's batch stays; the tagged marker of turn 3 leaves with its turn.
        expect(contents(await memory.read('s1', { includeControl: true }))).toEqual(['q1', 'a1', 'marker']);
        expect(await memory.countHistory('s1')).toBe(2);
        expect(contents(await memory.read('s2'))).toEqual(['other']);
        const all = await memory.readAll('s1');
        expect(contents(all)).toEqual(['q1', 'a1', 'q2', 'marker', 'a2', '', 'q3']);
        const superseded = all.filter((message) => message.metadata?.[WellKnownMetadataKeys.Superseded] !== undefined);
        expect(contents(superseded)).toEqual(['q2', 'a2', '', 'q3']);
        expect(superseded[0]?.metadata?.[WellKnownMetadataKeys.Superseded]).toEqual(mark);
        expect(superseded[0]?.metadata?.[WellKnownMetadataKeys.TurnId]).toBe('t2');
        await memory.append('s1', [user('q4', 't4')]);
        expect(contents(await memory.read('s1'))).toEqual(['q1', 'a1', 'q4']);
        expect(contents(await memory.read('s1', { from: 2 }))).toEqual(['q4']);
        expect(await memory.countHistory('s1')).toBe(3);
        // Marked once: a second rollback of the same turn marks nothing.
        expect(await memory.supersedeTurns('s1', ['t2'], { ...mark, id: 'r2' })).toBe(0);
        expect((await memory.readAll('s1'))[2]?.metadata?.[WellKnownMetadataKeys.Superseded]).toEqual(mark);
      });

      it("emits 'memory:deleted' with superseded per turn that had messages; survives a restart", async () => {
        const fixture = await open();
        const seen: unknown[] = [];
        fixture.events.on('memory:deleted', (payload) => {
          seen.push(payload);
        });
        await fixture.memory.append('s1', [user('q1', 't1'), assistant('a1', 't1'), user('q2', 't2')]);
        expect(await fixture.memory.supersedeTurns('s1', ['none', 't1'], mark)).toBe(2);
        expect(seen).toEqual([{ sessionId: 's1', turnId: 't1', count: 2, superseded: true }]);
        current = await fixture.restart();
        expect(contents(await current.memory.read('s1'))).toEqual(['q2']);
        expect(await current.memory.countHistory('s1')).toBe(1);
        expect((await current.memory.readAll('s1')).length).toBe(3);
      });

      it('refuses an empty session id or turn id with a coded error and marks nothing', async () => {
        const { memory } = await open();
        await memory.append('s1', [user('q1', 't1')]);
        expect(await codeOf(memory.supersedeTurns('', ['t1'], mark))).toBe('AALIS_MEMORY_ARGUMENT_INVALID');
        expect(await codeOf(memory.supersedeTurns('s1', [''], mark))).toBe('AALIS_MEMORY_ARGUMENT_INVALID');
        expect(await memory.countHistory('s1')).toBe(1);
        expect(await memory.supersedeTurns('nobody', ['t1'], mark)).toBe(0);
      });

      it('keeps a later compression divider the start of the active history', async () => {
        const { memory } = await open();
        await memory.append('s1', [user('q1', 't1'), assistant('a1', 't1'), divider(), user('q2', 't2')]);
        await memory.append('s1', [user('q3', 't3'), assistant('a3', 't3')]);
        expect(await memory.supersedeTurns('s1', ['t3'], mark)).toBe(2);
        expect(contents(await memory.read('s1'))).toEqual(['q2']);
        expect(await memory.activeStart('s1')).toBe(3);
        expect(await memory.countHistory('s1')).toBe(1);
      });
    });

    describe('search', () => {
      const found = async (memory: MemoryService, query: string, options = {}) =>
        (await memory.search(query, options)).map((hit) => `${hit.sessionId}:${hit.message.content}`);
      it('finds Chinese and English words in what people and she wrote, every term, never tool results', async () => {
        const { memory } = await open();
        await memory.append('web:alice:1', [
          user('记得每天喝水，别忘了', 't1'),
          { ...assistant('The bot was deployed at noon', 't1'), toolCalls: undefined },
          { role: 'tool', content: 'deployment log: secret', toolCallId: 'c1', name: 'shell' },
          { role: 'user', kind: 'command', content: '/remind 10m 喝水' },
          { role: 'system', kind: 'command-reply', content: 'Reminder set: 喝水 in 10 minutes' },
          { role: 'system', content: 'a system block about deployment' },
        ]);
        await memory.append('web:bob:1', [user('deploy the bot at noon', 't2')]);
        expect((await found(memory, '喝水')).sort()).toEqual(
          [
            'web:alice:1:/remind 10m 喝水',
            'web:alice:1:Reminder set: 喝水 in 10 minutes',
            'web:alice:1:记得每天喝水，别忘了',
          ].sort(),
        );
        expect((await found(memory, 'deploy')).sort()).toEqual([
          'web:alice:1:The bot was deployed at noon',
          'web:bob:1:deploy the bot at noon',
        ]);
        expect(await found(memory, 'deployed noon', { sessionPrefix: 'web:bob:' })).toEqual([
          'web:bob:1:deploy the bot at noon',
        ]);
        expect(await found(memory, 'deploy', { sessionIds: ['web:alice:1'] })).toEqual([
          'web:alice:1:The bot was deployed at noon',
        ]);
        expect(await found(memory, 'deploy nothing')).toEqual([]);
        expect(await found(memory, 'secret')).toEqual([]);
        // One Chinese character has no term of its own: matched as a substring.
        expect(await found(memory, '忘', { sessionPrefix: 'web:alice:' })).toEqual([
          'web:alice:1:记得每天喝水，别忘了',
        ]);
        expect(await memory.search('   ')).toEqual([]);
        expect(await memory.search('deploy', { limit: 1 })).toHaveLength(1);
      });

      it('keeps superseded messages findable (marked), and forgets rolled-back, cleared and re-appended ones right', async () => {
        const { memory } = await open();
        await memory.append('s1', [user('old kiwi question', 't1'), assistant('kiwi answer', 't1')]);
        expect(await found(memory, 'kiwi')).toHaveLength(2);
        await memory.supersedeTurns('s1', ['t1'], { id: 'r1', at: 1, action: 'edit' });
        const hits = await memory.search('kiwi');
        expect(hits).toHaveLength(2);
        expect(hits[0]?.message.metadata?.[WellKnownMetadataKeys.Superseded]).toMatchObject({ id: 'r1' });
        await memory.append('s1', [user('mango now', 't2')]);
        expect(await found(memory, 'mango')).toEqual(['s1:mango now']);
        await memory.deleteByTurn('s1', 't2');
        expect(await found(memory, 'mango')).toEqual([]);
        await memory.clear('s1');
        expect(await found(memory, 'kiwi')).toEqual([]);
        await memory.append('s1', [user('papaya after the clear', 't3')]);
        expect(await found(memory, 'papaya')).toEqual(['s1:papaya after the clear']);
        expect(await found(memory, 'kiwi')).toEqual([]);
      });
    });

    describe('deleteByTurn', () => {
      it("deletes only that turn's messages of that session and keeps counts right", async () => {
        const { memory } = await open();
        await memory.append('s1', [user('q1', 't1'), assistant('a1', 't1')]);
        await memory.append('s1', [user('q2', 't2'), marker(), assistant('a2', 't2')]);
        await memory.append('s1', [user('q3', 't3')]);
        await memory.append('s2', [user('other', 't2')]);
        expect(await memory.deleteByTurn('s1', 't2')).toBe(2);
        expect(contents(await memory.read('s1'))).toEqual(['q1', 'a1', 'q3']);
        expect(await memory.countHistory('s1')).toBe(3);
        expect(contents(await memory.read('s1', { from: 2 }))).toEqual(['q3']);
        expect(contents(await memory.read('s2'))).toEqual(['other']);
        expect(await memory.deleteByTurn('s1', 't2')).toBe(0);
      });

      it("emits 'memory:deleted' when a rollback deleted something", async () => {
        const { memory, events } = await open();
        const seen: unknown[] = [];
        events.on('memory:deleted', (payload) => {
          seen.push(payload);
        });
        await memory.append('s1', [user('q1', 't1'), assistant('a1', 't1')]);
        await memory.deleteByTurn('s1', 'none');
        await memory.deleteByTurn('s1', 't1');
        expect(seen).toEqual([{ sessionId: 's1', turnId: 't1', count: 2 }]);
      });

      it('keeps appending in order after a rollback', async () => {
        const { memory } = await open();
        await memory.append('s1', [user('q1', 't1'), user('q2', 't2')]);
        await memory.deleteByTurn('s1', 't2');
        await memory.append('s1', [user('q3', 't3')]);
        expect(contents(await memory.read('s1'))).toEqual(['q1', 'q3']);
        expect(contents(await memory.read('s1', { from: 1 }))).toEqual(['q3']);
        expect(await memory.countHistory('s1')).toBe(2);
      });
    });

    describe('clear', () => {
      const seedTwo = async (memory: MemoryService) => {
        await memory.append('a', [user('a1')]);
        await memory.append('b', [user('b1')]);
      };

      it('clears one session without the hooks service', async () => {
        const { memory, events } = await open({ hooks: false });
        await seedTwo(memory);
        const cleared: EventMap['memory:cleared'][] = [];
        events.on('memory:cleared', (payload) => {
          cleared.push(payload);
        });
        await memory.clear('a');
        expect(await memory.readAll('a')).toEqual([]);
        expect(await memory.countHistory('a')).toBe(0);
        expect(contents(await memory.read('b'))).toEqual(['b1']);
        expect(cleared).toEqual([{ sessionIds: ['a'] }]);
      });

      it('clears every session without the hooks service', async () => {
        const { memory } = await open({ hooks: false });
        await seedTwo(memory);
        await memory.clear();
        expect(await memory.readAll('a')).toEqual([]);
        expect(await memory.readAll('b')).toEqual([]);
      });

      it('a cleared session starts again from an empty history', async () => {
        const { memory } = await open();
        await memory.append('a', [user('x'), divider(), user('y')]);
        await memory.clear('a');
        await memory.append('a', [user('z')]);
        expect(contents(await memory.readAll('a'))).toEqual(['z']);
        expect(await memory.activeStart('a')).toBe(0);
        expect(contents(await memory.read('a', { from: 0 }))).toEqual(['z']);
      });

      it("runs the 'memory:clear' chain around the default action", async () => {
        const { memory, hooks, events } = await open({ hooks: true });
        await seedTwo(memory);
        const trace: string[] = [];
        events.on('memory:cleared', () => {
          trace.push('cleared event');
        });
        hooks!.middleware('memory:clear', async (context, next) => {
          trace.push(`before ${JSON.stringify(context.sessionIds)}`);
          await next();
          trace.push(`after, rows left: ${(await memory.readAll('a')).length}`);
        });
        await memory.clear('a');
        await memory.clear();
        expect(trace).toEqual([
          'before ["a"]',
          'cleared event',
          'after, rows left: 0',
          'before undefined',
          'cleared event',
          'after, rows left: 0',
        ]);
        expect(await memory.readAll('b')).toEqual([]);
      });

      it('a middleware that does not call next keeps the rows', async () => {
        const { memory, hooks } = await open({ hooks: true });
        await seedTwo(memory);
        hooks!.middleware('memory:clear', () => {});
        await memory.clear('a');
        expect(contents(await memory.read('a'))).toEqual(['a1']);
      });

      it('an empty list clears nothing', async () => {
        const { memory } = await open();
        await seedTwo(memory);
        await memory.clear([]);
        expect(contents(await memory.read('a'))).toEqual(['a1']);
      });
    });

    describe('persistence', () => {
      it('a new App on the same storage sees the history, dividers and counts', async () => {
        const first = await open();
        await first.memory.append('s1', [user('old'), divider(), user('q', 't1'), marker(), assistant('a', 't1')]);
        const before = await first.memory.readAll('s1');
        const second = await first.restart();
        current = second;
        expect(await second.memory.readAll('s1')).toEqual(before);
        expect(contents(await second.memory.read('s1'))).toEqual(['q', 'a']);
        expect(await second.memory.countHistory('s1')).toBe(2);
        expect(await second.memory.activeStart('s1')).toBe(2);
        await second.memory.append('s1', [user('next')]);
        expect(contents(await second.memory.read('s1', { from: 2 }))).toEqual(['next']);
      });
    });
  });
}
