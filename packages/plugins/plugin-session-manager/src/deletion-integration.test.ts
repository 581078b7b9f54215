// Session deletion with the real hooks and SQLite memory services: history of the deleted sessions is cleared
// through the memory:clear chain after session:deleted, other sessions keep theirs, and sessions survive a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HooksService, hooks } from '@aalis/api-hooks';
import { type MemoryService, memory } from '@aalis/api-memory';
import { type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { App, definePlugin, type Events, events, memorySink } from '@aalis/core';
import hooksPlugin from '@aalis/plugin-hooks';
import memoryPlugin from '@aalis/plugin-memory-sqlite';
import storagePlugin from '@aalis/plugin-storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import plugin from './index.js';

let dataDir: string;
let app: App;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'aalis-session-int-'));
});
afterEach(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function boot() {
  let found: { sessions: SessionManagerService; history: MemoryService; hookService: HooksService; bus: Events };
  const probe = definePlugin({
    name: 'probe',
    uses: { sessionManager, memory, hooks, events },
    apply(handles) {
      found = {
        sessions: handles.sessionManager.use,
        history: handles.memory.use,
        hookService: handles.hooks.use,
        bus: handles.events.use,
      };
    },
  });
  app = new App({ logSinks: [memorySink()], locale: 'en' });
  app.plugin(storagePlugin, { dataDir });
  app.plugin(hooksPlugin);
  app.plugin(memoryPlugin);
  app.plugin(plugin);
  app.plugin(probe);
  await app.start();
  return found!;
}

describe('plugin-session-manager with real hooks and memory', () => {
  it('clears the history of a deleted session tree after session:deleted, and only theirs', async () => {
    const { sessions, history, hookService, bus } = await boot();
    await sessions.ensure({ id: 'r1', kind: 'room', platform: 'qq' });
    await sessions.ensure({ id: 'c1', kind: 'child', platform: 'subtask', parentId: 'r1' });
    await sessions.ensure({ id: 'r2', kind: 'room', platform: 'qq' });
    for (const id of ['r1', 'c1', 'r2']) await history.append(id, [{ role: 'user', content: `hi ${id}` }]);
    const order: string[] = [];
    bus.on('session:deleted', async ({ sessionId }) => {
      order.push(`deleted ${sessionId} history=${await history.countHistory(sessionId)}`);
    });
    hookService.middleware('memory:clear', async (context, next) => {
      order.push(`memory:clear ${context.sessionIds?.join(',')}`);
      await next();
    });
    await sessions.deleteSession('r1');
    expect(order).toEqual(['deleted c1 history=1', 'deleted r1 history=1', 'memory:clear c1,r1']);
    expect(await history.countHistory('r1')).toBe(0);
    expect(await history.countHistory('c1')).toBe(0);
    expect(await history.countHistory('r2')).toBe(1);
  });

  it('keeps sessions after a restart on the same data directory', async () => {
    let { sessions } = await boot();
    await sessions.ensure({ id: 'w1', kind: 'web', platform: 'webui', title: 'Notes' });
    await app.stop();
    ({ sessions } = await boot());
    expect(await sessions.get('w1')).toMatchObject({ id: 'w1', kind: 'web', title: 'Notes' });
  });
});
