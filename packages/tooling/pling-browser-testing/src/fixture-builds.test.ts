import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureBuilds } from './fixture-builds.js';

const entry = new URL('./fixtures/workspace-source.case.ts', import.meta.url);

describe('fixtureBuilds', { timeout: 60_000 }, () => {
  it('builds a page once for the same options, again for other options, and cleanup deletes every page', async () => {
    const builds = fixtureBuilds();
    const [first, again] = await Promise.all([builds.build({ entry }), builds.build({ entry })]);
    expect(again).toBe(first);
    // An entry given as a path is the same page as the same entry as a URL.
    expect(await builds.build({ entry: entry.pathname })).toBe(first);
    const titled = await builds.build({ entry, title: 'Other title' });
    expect(titled.dir).not.toBe(first.dir);
    expect(existsSync(first.dir)).toBe(true);
    await builds.cleanup();
    expect(existsSync(first.dir)).toBe(false);
    expect(existsSync(titled.dir)).toBe(false);
  });

  it('keeps no failed build: the next call builds again and fails again', async () => {
    const builds = fixtureBuilds();
    const missing = new URL('./fixtures/no-such-entry.case.ts', import.meta.url);
    await expect(builds.build({ entry: missing })).rejects.toThrow('does not exist');
    await expect(builds.build({ entry: missing })).rejects.toThrow('does not exist');
    await builds.cleanup();
  });
});
