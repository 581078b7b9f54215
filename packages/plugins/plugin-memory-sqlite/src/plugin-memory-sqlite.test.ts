import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hooks as hooksDescriptor } from '@aalis/api-hooks';
import { memory as memoryDescriptor } from '@aalis/api-memory';
import { describeMemoryConformance, type MemoryFixture } from '@aalis/api-memory/conformance';
import { App, memorySink } from '@aalis/core';
import hooksPlugin from '@aalis/plugin-hooks';
import storagePlugin from '@aalis/plugin-storage';
import memoryPlugin from './index.js';
import { itHandsOutTimeOrderedIds } from './time-ordered-ids.case.js';

async function boot(dataDir: string, withHooks: boolean) {
  const app = new App({ logSinks: [memorySink()] });
  app.plugin(storagePlugin, { dataDir });
  if (withHooks) app.plugin(hooksPlugin);
  app.plugin(memoryPlugin);
  await app.start();
  const memory = app.registry.select(memoryDescriptor.name)?.impl;
  if (!memory) throw new Error(`memory did not start: ${JSON.stringify(app.states())}`);
  return { app, memory: memory as MemoryFixture['memory'] };
}

async function createFixture(options: { hooks: boolean }, dataDir?: string): Promise<MemoryFixture> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'aalis-memory-'));
  const { app, memory } = await boot(dir, options.hooks);
  const hooks = app.registry.select(hooksDescriptor.name)?.impl as MemoryFixture['hooks'];
  return {
    memory,
    events: app.events,
    hooks,
    async restart() {
      await app.stop();
      return createFixture(options, dir);
    },
    async dispose() {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeMemoryConformance('plugin-memory-sqlite', createFixture);
itHandsOutTimeOrderedIds(createFixture);
