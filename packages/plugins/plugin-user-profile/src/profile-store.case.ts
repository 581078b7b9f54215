// The one conformance suite of ProfileStore, run on SQLite and PostgreSQL.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_FACTS_PER_PERSON, type ProfileStore } from './profile-store.js';

export function describeProfileStoreConformance(
  name: string,
  create: () => Promise<{ store: ProfileStore; dispose(): Promise<void> }>,
): void {
  describe(`ProfileStore conformance: ${name}`, () => {
    let fixture: { store: ProfileStore; dispose(): Promise<void> };
    beforeEach(async () => {
      fixture = await create();
    });
    afterEach(async () => {
      await fixture.dispose();
    });

    it('keeps facts per person, oldest first, each text once', async () => {
      const { store } = fixture;
      await store.remember({ id: 'f1', person: 'qq:1', fact: 'likes jasmine tea', at: 1 });
      await store.remember({ id: 'f2', person: 'qq:1', fact: 'has a cat named Miso', at: 2 });
      await store.remember({ id: 'f3', person: 'qq:1', fact: 'likes jasmine tea', at: 3 });
      await store.remember({ id: 'f4', person: 'qq:2', fact: 'plays the cello', at: 4 });
      expect((await store.facts('qq:1')).map((fact) => fact.fact)).toEqual([
        'likes jasmine tea',
        'has a cat named Miso',
      ]);
      expect(await store.facts('qq:2')).toEqual([{ id: 'f4', person: 'qq:2', fact: 'plays the cello', at: 4 }]);
      expect(await store.remember({ id: 'f5', person: 'qq:1', fact: 'likes jasmine tea', at: 5 })).toMatchObject({
        id: 'f1',
      });
      expect(await store.facts('nobody')).toEqual([]);
    });

    it('forgets what matches, or everything, of one person only', async () => {
      const { store } = fixture;
      await store.remember({ id: 'f1', person: 'qq:1', fact: 'likes Jasmine tea', at: 1 });
      await store.remember({ id: 'f2', person: 'qq:1', fact: 'has a cat', at: 2 });
      await store.remember({ id: 'f3', person: 'qq:2', fact: 'likes jasmine rice', at: 3 });
      expect((await store.forget('qq:1', 'jasmine')).map((fact) => fact.id)).toEqual(['f1']);
      expect((await store.facts('qq:1')).map((fact) => fact.id)).toEqual(['f2']);
      expect((await store.facts('qq:2')).map((fact) => fact.id)).toEqual(['f3']);
      expect((await store.forget('qq:1')).map((fact) => fact.id)).toEqual(['f2']);
      expect(await store.facts('qq:1')).toEqual([]);
    });

    it('keeps at most MAX_FACTS_PER_PERSON facts, the newest', async () => {
      const { store } = fixture;
      for (let i = 0; i < MAX_FACTS_PER_PERSON + 3; i += 1) {
        await store.remember({ id: `f${String(i).padStart(3, '0')}`, person: 'qq:1', fact: `fact ${i}`, at: i });
      }
      const kept = await store.facts('qq:1');
      expect(kept).toHaveLength(MAX_FACTS_PER_PERSON);
      expect(kept[0]?.fact).toBe('fact 3');
    });
    it('reads one fact, rewrites it (merging into an equal one), forgets by id', async () => {
      const { store } = fixture;
      await store.remember({ id: 'f1', person: 'qq:1', fact: 'likes tea', at: 1, source: 'tool' });
      await store.remember({ id: 'f2', person: 'qq:1', fact: 'likes coffee', at: 2, source: 'extraction' });
      expect(await store.get('f1')).toEqual({ id: 'f1', person: 'qq:1', fact: 'likes tea', at: 1, source: 'tool' });
      expect(await store.get('nope')).toBeUndefined();
      expect(await store.update('f1', 'likes green tea', 3)).toEqual({
        id: 'f1',
        person: 'qq:1',
        fact: 'likes green tea',
        at: 3,
        source: 'page',
      });
      expect(await store.update('f1', 'likes coffee', 4)).toMatchObject({ id: 'f2', fact: 'likes coffee' });
      expect((await store.facts('qq:1')).map((fact) => fact.id)).toEqual(['f2']);
      expect(await store.update('gone', 'x', 5)).toBeUndefined();
      expect((await store.forgetIds(['f2', 'gone'])).map((fact) => fact.id)).toEqual(['f2']);
      expect(await store.facts('qq:1')).toEqual([]);
      expect(await store.forgetIds([])).toEqual([]);
    });

    it('lists people newest first and searches facts by text, of some people or everyone', async () => {
      const { store } = fixture;
      await store.remember({ id: 'a1', person: 'qq:1', fact: 'Likes Jasmine tea', at: 1 });
      await store.remember({ id: 'b1', person: 'qq:2', fact: 'plays the cello', at: 2 });
      await store.remember({ id: 'b2', person: 'qq:2', fact: '喜欢茉莉花茶 100%_sure', at: 3 });
      expect(await store.people(10)).toEqual([
        { person: 'qq:2', facts: 2, lastAt: 3 },
        { person: 'qq:1', facts: 1, lastAt: 1 },
      ]);
      expect(await store.people(1)).toHaveLength(1);
      expect((await store.search({ text: 'jasmine', limit: 10 })).map((fact) => fact.id)).toEqual(['a1']);
      expect((await store.search({ text: '茉莉', limit: 10 })).map((fact) => fact.id)).toEqual(['b2']);
      expect((await store.search({ text: '100%_', limit: 10 })).map((fact) => fact.id)).toEqual(['b2']);
      expect(await store.search({ text: '%', limit: 10 })).toHaveLength(1);
      expect((await store.search({ text: 'e', persons: ['qq:1'], limit: 10 })).map((fact) => fact.id)).toEqual(['a1']);
      expect(await store.search({ text: 'e', persons: [], limit: 10 })).toEqual([]);
      expect((await store.search({ text: 'e', limit: 10 })).map((fact) => fact.id)).toEqual(['b2', 'b1', 'a1']);
    });
  });
}
