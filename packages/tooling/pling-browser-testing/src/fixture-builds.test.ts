import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

  it("keeps a Vite app's production build per .env.local, as it is built from it", async () => {
    const builds = fixtureBuilds();
    const env = { VITE_AGENT_BASE_URL: '/v1', VITE_AGENT_MODEL: 'env-model' };
    const first = await builds.buildViteApp({ entry, envLocal: env });
    expect(await builds.buildViteApp({ entry: entry.pathname, envLocal: { ...env } })).toBe(first);
    // A fixture page of the same entry is another build (no .env.local, the fixture defines).
    expect((await builds.build({ entry })).dir).not.toBe(first.dir);
    const without = await builds.buildViteApp({ entry, envLocal: {} });
    expect(without.dir).not.toBe(first.dir);
    expect(existsSync(join(first.dir, 'index.html'))).toBe(true);
    await builds.cleanup();
    expect(existsSync(first.dir)).toBe(false);
    expect(existsSync(without.dir)).toBe(false);
  });

  it('keeps no failed build: the next call builds again and fails again', async () => {
    const builds = fixtureBuilds();
    const missing = new URL('./fixtures/no-such-entry.case.ts', import.meta.url);
    await expect(builds.build({ entry: missing })).rejects.toThrow('does not exist');
    await expect(builds.build({ entry: missing })).rejects.toThrow('does not exist');
    await builds.cleanup();
  });
});
