// The memory conformance suite on PostgreSQL: the same suite as on SQLite, on a throwaway server.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hooks as hooksDescriptor } from '@aalis/api-hooks';
import { memory as memoryDescriptor } from '@aalis/api-memory';
import { describeMemoryConformance, type MemoryFixture } from '@aalis/api-memory/conformance';
import { App, memorySink } from '@aalis/core';
import hooksPlugin from '@aalis/plugin-hooks';
import storagePlugin from '@aalis/plugin-storage';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import memoryPlugin from './index.js';
import { itHandsOutTimeOrderedIds } from './time-ordered-ids.case.js';

async function createFixture(options: { hooks: boolean }, existing?: { dir: string; url: string }) {
  const dir = existing?.dir ?? mkdtempSync(join(tmpdir(), 'aalis-memory-pg-'));
  const url = existing?.url ?? (await throwawayDatabase());
  const app = new App({ logSinks: [memorySink()] });
  app.plugin(storagePlugin, { dataDir: dir, database: url });
  if (options.hooks) app.plugin(hooksPlugin);
  app.plugin(memoryPlugin);
  await app.start();
  const memory = app.registry.select(memoryDescriptor.name)?.impl as MemoryFixture['memory'] | undefined;
  if (!memory) throw new Error(`memory did not start: ${JSON.stringify(app.states())}`);
  const fixture: MemoryFixture = {
    memory,
    events: app.events,
    hooks: app.registry.select(hooksDescriptor.name)?.impl as MemoryFixture['hooks'],
    async restart() {
      await app.stop();
      return createFixture(options, { dir, url });
    },
    async dispose() {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}

describeMemoryConformance('plugin-memory-sqlite on PostgreSQL', (options) => createFixture(options));
itHandsOutTimeOrderedIds((options) => createFixture(options));
