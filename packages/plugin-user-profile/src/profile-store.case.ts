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
  });
}
