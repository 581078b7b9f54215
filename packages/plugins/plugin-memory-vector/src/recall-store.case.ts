// The one conformance suite of RecallStore: every engine runs it (sqlite-recall-store.test.ts,
// postgres-recall-store.test.ts).
import { queryTerms } from '@aalis/util-text-search';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from './content-hash.js';
import { embeddedText, type RecallEntry, type RecallScope, type RecallStore } from './recall-store.js';

export interface RecallStoreFixture {
  store: RecallStore;
  dispose(): Promise<void>;
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

function entry(id: string, text: string, extra: Partial<RecallEntry> = {}): RecallEntry {
  return {
    messageId: id,
    sessionId: 'qq:group:1',
    audience: 'room:qq:1',
    role: 'user',
    at: T0 + Number(id.replace(/\D/g, '') || 0) * 1000,
    text,
    ...extra,
  };
}

const GROUP_SCOPE: RecallScope = { sessionId: 'qq:group:1', audiences: ['room:qq:1'], persons: [] };

async function ids(store: RecallStore, text: string, scope: RecallScope = GROUP_SCOPE): Promise<string[]> {
  return (await store.search({ terms: queryTerms(text), scope, limit: 20 })).map((hit) => hit.messageId);
}

export function describeRecallStoreConformance(name: string, create: () => Promise<RecallStoreFixture>): void {
  describe(`RecallStore conformance: ${name}`, () => {
    let fixture: RecallStoreFixture;
    beforeEach(async () => {
      fixture = await create();
    });
    afterEach(async () => {
      await fixture.dispose();
    });

    it('finds English by its stem and Chinese by its words', async () => {
      const { store } = fixture;
      await store.add([
        entry('m1', 'Caroline: I painted a sunset over the lake last weekend'),
        entry('m2', 'Melanie: 我上周去杭州西湖看了荷花'),
        entry('m3', 'Melanie: the weather is nice today'),
      ]);
      expect(await ids(store, 'Which sunsets did she paint?')).toEqual(['m1']);
      expect(await ids(store, '西湖的荷花开了吗')).toEqual(['m2']);
      expect(await ids(store, 'nothing matches quantum chromodynamics')).toEqual([]);
    });

    it('finds an entry by the words said before it only when asked to, and below one holding them', async () => {
      const { store } = fixture;
      await store.add([
        entry('m1', 'where did you leave the spare key?'),
        entry('m2', 'under the blue flowerpot', { context: 'where did you leave the spare key?' }),
        entry('m3', 'the spare key of the shed is lost'),
      ]);
      // A plain search (the Memory page, forgetting) finds what was said, never the entry after it.
      expect((await ids(store, 'spare key')).sort()).toEqual(['m1', 'm3']);
      const withContext = (
        await store.search({ terms: queryTerms('spare key'), scope: GROUP_SCOPE, limit: 20, context: true })
      ).map((hit) => hit.messageId);
      expect(withContext.sort()).toEqual(['m1', 'm2', 'm3']);
      const ranked = await store.search({
        terms: queryTerms('spare key'),
        scope: GROUP_SCOPE,
        limit: 20,
        context: true,
      });
      expect(ranked.at(-1)?.messageId).toBe('m2');
      expect(
        (await store.search({ terms: queryTerms('flowerpot'), scope: GROUP_SCOPE, limit: 20, context: true })).map(
          (hit) => hit.messageId,
        ),
      ).toEqual(['m2']);
    });

    it('adds each message once and counts what it holds', async () => {
      const { store } = fixture;
      expect(await store.add([entry('m1', 'alpha beta'), entry('m2', 'gamma')])).toBe(2);
      expect(await store.add([entry('m1', 'alpha beta again'), entry('m3', 'delta')])).toBe(1);
      expect(await store.count()).toBe(3);
      expect(await ids(store, 'alpha')).toEqual(['m1']);
      expect((await store.get(['m1', 'missing', 'm3'])).map((found) => found.text)).toEqual(['alpha beta', 'delta']);
    });

    it('ranks an entry holding more of the rare terms first', async () => {
      const { store } = fixture;
      await store.add([
        entry('m1', 'we talked about the marathon'),
        entry('m2', 'the Boston marathon route along the Charles river'),
        entry('m3', 'river trip'),
        ...Array.from({ length: 20 }, (_, i) => entry(`f${i + 10}`, `unrelated chatter number ${i}`)),
      ]);
      const hits = await ids(store, 'Boston marathon river');
      expect(hits[0]).toBe('m2');
      expect(hits).toHaveLength(3);
    });

    it('answers only from its scope: the session, whole audiences, people’s own words in rooms', async () => {
      const { store } = fixture;
      await store.add([
        entry('m1', 'secret kayak plan', { sessionId: 'qq:private:a', audience: 'private:qq:a' }),
        entry('m2', 'kayak in the group', { sessionId: 'qq:group:2', audience: 'room:qq:2', person: 'qq:a' }),
        entry('m3', 'kayak said by b', { sessionId: 'qq:group:2', audience: 'room:qq:2', person: 'qq:b' }),
        entry('m4', 'kayak in this group'),
      ]);
      const groupWithA = { sessionId: 'qq:group:1', audiences: ['room:qq:1'], persons: ['qq:a'] };
      expect((await ids(store, 'kayak', groupWithA)).sort()).toEqual(['m2', 'm4']);
      const privateWithB = { sessionId: 'qq:private:b', audiences: ['private:qq:b'], persons: ['qq:b'] };
      expect(await ids(store, 'kayak', privateWithB)).toEqual(['m3']);
      const privateWithA = { sessionId: 'qq:private:a', audiences: ['private:qq:a'], persons: ['qq:a'] };
      expect((await ids(store, 'kayak', privateWithA)).sort()).toEqual(['m1', 'm2']);
      const onlyTheSession = { sessionId: 'qq:private:a', audiences: [], persons: [] };
      expect(await ids(store, 'kayak', onlyTheSession)).toEqual(['m1']);
    });

    it('gives the neighbours of an entry in its own session, in time order', async () => {
      const { store } = fixture;
      await store.add([
        entry('m3', 'three'),
        entry('m1', 'one'),
        entry('m2', 'two'),
        entry('m4', 'four'),
        entry('m5', 'elsewhere', { sessionId: 'other', at: T0 + 3500 }),
      ]);
      const ids = (found: Map<string, RecallEntry[]>) =>
        Object.fromEntries([...found].map(([anchor, entries]) => [anchor, entries.map((one) => one.messageId)]));
      expect(ids(await store.around(['m3'], 1, 1))).toEqual({ m3: ['m2', 'm4'] });
      // Several anchors in one call; an unknown id and an entry alone in its session have no neighbours.
      expect(ids(await store.around(['m1', 'm4', 'missing', 'm5'], 2, 2))).toEqual({
        m1: ['m2', 'm3'],
        m4: ['m2', 'm3'],
      });
      expect(ids(await store.around(['m2'], 0, 5))).toEqual({ m2: ['m3', 'm4'] });
      expect(await store.around([], 1, 1)).toEqual(new Map());
      expect((await store.around(['m3'], 1, 1)).get('m3')?.[0]).toEqual(entry('m2', 'two'));
    });

    it('orders neighbours said at the same moment as they were added', async () => {
      const { store } = fixture;
      const at = T0 + 7000;
      await store.add([entry('m1', 'before'), entry('m7', 'first', { at }), entry('m8', 'second', { at })]);
      await store.add([entry('m9', 'third', { at }), entry('m10', 'after', { at: at + 1 })]);
      const ids = async (anchor: string) =>
        ((await store.around([anchor], 2, 2)).get(anchor) ?? []).map((one) => one.messageId);
      expect(await ids('m8')).toEqual(['m1', 'm7', 'm9', 'm10']);
      expect(await ids('m7')).toEqual(['m1', 'm8', 'm9']);
      expect(await ids('m9')).toEqual(['m7', 'm8', 'm10']);
    });

    it('keeps every field of an entry', async () => {
      const { store } = fixture;
      const full = entry('m1', 'full entry', {
        person: 'qq:a',
        speaker: 'Ann (qq:a)',
        role: 'assistant',
        turnId: 't1',
        at: T0 + 5 * DAY,
      });
      await store.add([full]);
      expect(await store.get(['m1'])).toEqual([full]);
      const hit = (await store.search({ terms: ['full'], scope: GROUP_SCOPE, limit: 1 }))[0];
      expect(hit).toMatchObject(full);
      expect(hit?.score).toBeGreaterThan(0);
    });

    it('forgets sessions, turns and single messages from the index', async () => {
      const { store } = fixture;
      await store.add([
        entry('m1', 'zebra one', { turnId: 't1' }),
        entry('m2', 'zebra two', { turnId: 't2' }),
        entry('m3', 'zebra three', { sessionId: 's2', audience: 'room:qq:1' }),
        entry('m4', 'zebra four'),
      ]);
      expect(await store.deleteTurn('qq:group:1', 't1')).toBe(1);
      expect(await store.deleteMessages(['m4'])).toBe(1);
      expect((await ids(store, 'zebra')).sort()).toEqual(['m2', 'm3']);
      expect(await store.deleteSessions(['s2'])).toBe(1);
      expect(await ids(store, 'zebra')).toEqual(['m2']);
      expect(await store.deleteSessions(undefined)).toBe(1);
      expect(await ids(store, 'zebra')).toEqual([]);
      expect(await store.count()).toBe(0);
    });

    it('stores a huge message and binary junk without losing either, and still finds them', async () => {
      const { store } = fixture;
      const huge = `needle at the start ${'lorem ipsum '.repeat(50_000)}`;
      const junk = `junk ${String.fromCharCode(...Array.from({ length: 2000 }, (_, i) => (i * 7919) % 0xd7ff))}`;
      expect(await store.add([entry('m1', huge), entry('m2', junk)])).toBe(2);
      expect(await ids(store, 'needle')).toEqual(['m1']);
      expect(await ids(store, 'junk')).toEqual(['m2']);
      expect((await store.get(['m1']))[0]?.text).toBe(huge);
    });

    it('stores vectors of one model, lists what still needs one, and finds the nearest within the scope', async () => {
      const { store } = fixture;
      expect(await store.vectorModel()).toBeUndefined();
      await store.add([
        entry('m1', 'kayak on the lake'),
        entry('m2', 'a private kayak', { sessionId: 'qq:private:a', audience: 'private:qq:a' }),
        entry('m3', 'marathon training', { sessionId: 'qq:group:2', audience: 'room:qq:2', person: 'qq:a' }),
        entry('m4', 'sunset painting'),
      ]);
      await store.resetVectors({ model: 'test/hash', dimensions: 3 });
      expect(await store.vectorModel()).toEqual({ model: 'test/hash', dimensions: 3 });
      const pending = await store.unembedded(0, 10);
      expect(pending.map((item) => item.messageId)).toEqual(['m1', 'm2', 'm3', 'm4']);
      expect(pending[0]?.text).toBe('kayak on the lake');
      const afterFirst = await store.unembedded(pending[0]!.position, 10);
      expect(afterFirst.map((item) => item.messageId)).toEqual(['m2', 'm3', 'm4']);
      const at = (x: number, y: number, z: number) => new Float32Array([x, y, z]);
      const vector = { m1: at(1, 0, 0), m2: at(0.9, 0.1, 0), m3: at(0, 1, 0), m4: at(0, 0, 1) };
      const stored = await store.addVectors(
        pending.map((item) => ({
          messageId: item.messageId,
          hash: contentHash(item.text),
          vector: vector[item.messageId as keyof typeof vector],
        })),
      );
      expect(stored).toBe(4);
      expect(await store.vectorCount()).toBe(4);
      expect(await store.unembedded(0, 10)).toEqual([]);
      // A vector of another length, or for an entry not stored, is not kept.
      expect(await store.addVectors([{ messageId: 'm9', hash: 'x', vector: at(1, 1, 1) }])).toBe(0);
      expect(await store.addVectors([{ messageId: 'm1', hash: 'y', vector: new Float32Array([1, 0]) }])).toBe(0);

      const near = await store.nearest({ vector: at(0.8, 0.6, 0), scope: GROUP_SCOPE, limit: 10 });
      expect(near.map((hit) => hit.messageId)).toEqual(['m1', 'm4']);
      expect(near[0]?.score).toBeCloseTo(0.8, 4);
      expect(near[0]).toMatchObject({ sessionId: 'qq:group:1', audience: 'room:qq:1', text: 'kayak on the lake' });
      const withA = { ...GROUP_SCOPE, persons: ['qq:a'] };
      expect(
        (await store.nearest({ vector: at(0, 1, 0), scope: withA, limit: 1 })).map((hit) => hit.messageId),
      ).toEqual(['m3']);
      const privateA = { sessionId: 'qq:private:a', audiences: ['private:qq:a'], persons: ['qq:a'] };
      expect(
        (await store.nearest({ vector: at(1, 0, 0), scope: privateA, limit: 5 })).map((hit) => hit.messageId),
      ).toEqual(['m2', 'm3']);
      const cached = await store.cachedVectors([contentHash('kayak on the lake'), 'unknown']);
      expect([...cached.keys()]).toEqual([contentHash('kayak on the lake')]);
      expect([...(cached.get(contentHash('kayak on the lake')) ?? [])]).toEqual([1, 0, 0]);
    });

    it('forgets a message from the vector index and the cache too, and a re-index starts over', async () => {
      const { store } = fixture;
      const kept = entry('m1', 'zebra crossing', { speaker: 'Ann (qq:a)' });
      await store.add([kept, entry('m2', 'zebra stripes'), entry('m3', 'zebra again', { turnId: 't3' })]);
      await store.resetVectors({ model: 'test/hash', dimensions: 2 });
      const pending = await store.unembedded(0, 10);
      expect(pending[0]?.text).toBe(embeddedText(kept));
      await store.addVectors(
        pending.map((item, index) => ({
          messageId: item.messageId,
          hash: contentHash(item.text),
          vector: new Float32Array([1, index / 10]),
        })),
      );
      expect(await store.deleteMessages(['m2'])).toBe(1);
      expect(await store.deleteTurn('qq:group:1', 't3')).toBe(1);
      const found = await store.nearest({ vector: new Float32Array([1, 0]), scope: GROUP_SCOPE, limit: 10 });
      expect(found.map((hit) => hit.messageId)).toEqual(['m1']);
      expect((await store.cachedVectors(pending.map((item) => contentHash(item.text)))).size).toBe(1);
      expect(await store.vectorCount()).toBe(1);

      await store.resetVectors({ model: 'test/other', dimensions: 4 });
      expect(await store.vectorCount()).toBe(0);
      expect((await store.unembedded(0, 10)).map((item) => item.messageId)).toEqual(['m1']);
      expect(await store.nearest({ vector: new Float32Array([1, 0, 0, 0]), scope: GROUP_SCOPE, limit: 5 })).toEqual([]);
      expect((await store.cachedVectors([contentHash(embeddedText(kept))])).size).toBe(0);
      await store.deleteSessions(undefined);
      expect(await store.vectorCount()).toBe(0);
    });

    it('keeps marks', async () => {
      const { store } = fixture;
      expect(await store.mark('catch-up')).toBeUndefined();
      await store.setMark('catch-up', '1');
      await store.setMark('catch-up', '2');
      expect(await store.mark('catch-up')).toBe('2');
    });
  });
}
