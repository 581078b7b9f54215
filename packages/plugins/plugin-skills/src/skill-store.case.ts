// The one conformance suite of SkillStore, run on SQLite and PostgreSQL.
import type { Skill } from '@aalis/api-skills';
import { queryTerms } from '@aalis/util-text-search';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillStore } from './skill-store.js';

function skill(id: string, name: string, content: string, scope: string, at: number, by?: string): Skill {
  return { id, name, content, scope, ...(by ? { by } : {}), createdAt: at, updatedAt: at };
}

export function describeSkillStoreConformance(
  name: string,
  create: () => Promise<{ store: SkillStore; dispose(): Promise<void> }>,
): void {
  describe(`SkillStore conformance: ${name}`, () => {
    let fixture: { store: SkillStore; dispose(): Promise<void> };
    beforeEach(async () => {
      fixture = await create();
    });
    afterEach(async () => {
      await fixture.dispose();
    });

    it('saves, replaces the same name in the same scope (id and creation kept), lists newest first', async () => {
      const { store } = fixture;
      await store.save(skill('s1', 'weekly report', 'collect the merged pull requests', 'global', 1, 'owner'), 10);
      await store.save(skill('s2', 'weekly report', 'a different room’s way', 'room:qq:700', 2), 10);
      const replaced = await store.save(
        skill('s3', 'weekly report', 'group the merged pull requests by label', 'global', 3),
        10,
      );
      expect(replaced).toEqual({
        id: 's1',
        name: 'weekly report',
        content: 'group the merged pull requests by label',
        scope: 'global',
        by: 'owner',
        createdAt: 1,
        updatedAt: 3,
      });
      expect(await store.count()).toBe(2);
      expect((await store.list({ limit: 10 })).map((entry) => entry.id)).toEqual(['s1', 's2']);
      expect((await store.list({ scopes: ['room:qq:700'], limit: 10 })).map((entry) => entry.id)).toEqual(['s2']);
      expect(await store.list({ scopes: [], limit: 10 })).toEqual([]);
      expect(await store.get('s2')).toMatchObject({ name: 'weekly report', scope: 'room:qq:700' });
      expect(await store.get('nope')).toBeUndefined();
    });

    it('finds by the words of a text, Chinese and English, only in the scopes asked, best first', async () => {
      const { store } = fixture;
      await store.save(
        skill('a', '整理周报', '每周五把合并的拉取请求按标签分组，写成周报发到群里', 'room:qq:700', 1),
        10,
      );
      await store.save(
        skill('b', 'deploy the docs site', 'build with vite, then upload dist to the bucket', 'global', 2),
        10,
      );
      await store.save(skill('c', 'private recipe', 'deploy the jasmine tea recipe', 'private:qq:111', 3), 10);
      expect((await store.search({ terms: queryTerms('帮我写这周的周报'), limit: 5 })).map((hit) => hit.id)).toEqual([
        'a',
      ]);
      const deploy = await store.search({
        terms: queryTerms('how do we deploy the docs?'),
        scopes: ['global', 'room:qq:700'],
        limit: 5,
      });
      expect(deploy.map((hit) => hit.id)).toEqual(['b']);
      expect(deploy[0]?.score).toBeGreaterThan(0);
      const everywhere = await store.search({ terms: queryTerms('deploy the docs site'), limit: 5 });
      expect(everywhere.map((hit) => hit.id)).toEqual(['b', 'c']);
      expect(await store.search({ terms: queryTerms('deploy'), scopes: [], limit: 5 })).toEqual([]);
      expect(await store.search({ terms: [], limit: 5 })).toEqual([]);
    });

    it('refuses a new skill past the bound, but still replaces an existing one', async () => {
      const { store } = fixture;
      expect(await store.save(skill('a', 'one', 'first', 'global', 1), 2)).not.toBe('full');
      expect(await store.save(skill('b', 'two', 'second', 'global', 2), 2)).not.toBe('full');
      expect(await store.save(skill('c', 'three', 'third', 'global', 3), 2)).toBe('full');
      expect(await store.save(skill('d', 'two', 'second, better', 'global', 4), 2)).toMatchObject({ id: 'b' });
      expect(await store.count()).toBe(2);
    });

    it('updates name and procedure (re-indexed), refuses a name taken in the scope, deletes from the index', async () => {
      const { store } = fixture;
      await store.save(skill('a', 'tea', 'brew jasmine tea for three minutes', 'global', 1), 10);
      await store.save(skill('b', 'coffee', 'grind the beans', 'global', 2), 10);
      expect(await store.update({ ...skill('a', 'coffee', 'x', 'global', 5) })).toBe('conflict');
      const updated = await store.update(skill('a', 'green tea', 'steep sencha for one minute', 'global', 6));
      expect(updated).toMatchObject({
        id: 'a',
        name: 'green tea',
        content: 'steep sencha for one minute',
        updatedAt: 6,
      });
      expect(await store.search({ terms: queryTerms('jasmine'), limit: 5 })).toEqual([]);
      expect((await store.search({ terms: queryTerms('sencha'), limit: 5 })).map((hit) => hit.id)).toEqual(['a']);
      expect(await store.update(skill('zz', 'x', 'y', 'global', 7))).toBeUndefined();
      expect(await store.delete('a')).toBe(true);
      expect(await store.delete('a')).toBe(false);
      expect(await store.search({ terms: queryTerms('sencha'), limit: 5 })).toEqual([]);
      expect(await store.count()).toBe(1);
    });

    it('keeps odd text as it was given (quotes, NUL-free unicode, FTS syntax)', async () => {
      const { store } = fixture;
      const content = 'use "quotes" AND NOT OR * ( ) — 引号「」 and emoji 🍵';
      await store.save(skill('a', 'odd "name"', content, 'global', 1), 10);
      expect((await store.get('a'))?.content).toBe(content);
      expect((await store.search({ terms: queryTerms('"quotes" AND ('), limit: 5 })).map((hit) => hit.id)).toEqual([
        'a',
      ]);
    });
  });
}
