// A deletion on one process moves the session's generation on every process of the same PostgreSQL and sends
// session:deleted there too (so that process's agent releases what it collected, unarchived).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { App, definePlugin, type Events, events, memorySink } from '@aalis/core';
import storagePlugin from '@aalis/plugin-storage';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from './index.js';

const apps: App[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function processOn(database: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'aalis-sessions-deletions-'));
  dirs.push(dataDir);
  let found!: { sessions: SessionManagerService; bus: Events };
  const app = new App({ logSinks: [memorySink()], locale: 'en' });
  app.plugin(storagePlugin, { dataDir, database });
  app.plugin(plugin);
  app.plugin(
    definePlugin({
      name: 'probe',
      uses: { sessionManager, events },
      apply(handles) {
        found = { sessions: handles.sessionManager.use, bus: handles.events.use };
      },
    }),
  );
  await app.start();
  apps.push(app);
  const deleted: { sessionId: string; rootId: string }[] = [];
  found.bus.on('session:deleted', ({ sessionId, rootId }) => void deleted.push({ sessionId, rootId }));
  return { ...found, deleted };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('deletion generations across processes on one PostgreSQL', () => {
  it('a deletion on A bumps the generations on B and sends session:deleted there, children first', async () => {
    const database = await throwawayDatabase();
    const a = await processOn(database);
    const b = await processOn(database);
    await a.sessions.ensure({ id: 'web:root', kind: 'web', platform: 'webui' });
    await a.sessions.ensure({ id: 'web:child', kind: 'child', platform: 'webui', parentId: 'web:root' });
    await a.sessions.ensure({ id: 'web:other', kind: 'web', platform: 'webui' });
    expect([b.sessions.generationOf('web:root'), b.sessions.generationOf('web:child')]).toEqual([0, 0]);

    await a.sessions.deleteSession('web:root', { reason: 'test' });
    await until(() => b.deleted.length === 2, 'session:deleted on B');
    expect(b.deleted).toEqual([
      { sessionId: 'web:child', rootId: 'web:root' },
      { sessionId: 'web:root', rootId: 'web:root' },
    ]);
    // The same generations as on A: once per deletion, each session of the subtree.
    expect([b.sessions.generationOf('web:root'), b.sessions.generationOf('web:child')]).toEqual([1, 1]);
    expect([a.sessions.generationOf('web:root'), a.sessions.generationOf('web:child')]).toEqual([1, 1]);
    expect(b.sessions.generationOf('web:other')).toBe(0);
    // A sees its own deletion once (its notices are not applied again).
    expect(a.deleted).toHaveLength(2);
  });
});
