// The message archive conformance suite with memory on PostgreSQL (the archive goes through memory): the same suite
// as plugin-message-archive.test.ts runs on SQLite.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryService, memory as memoryDescriptor } from '@aalis/api-memory';
import { type MessageArchiveService, messageArchive } from '@aalis/api-message-archive';
import { describeMessageArchiveConformance, type MessageArchiveFixture } from '@aalis/api-message-archive/conformance';
import { App, memorySink } from '@aalis/core';
import memoryPlugin from '@aalis/plugin-memory-sqlite';
import storagePlugin from '@aalis/plugin-storage';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import archivePlugin from './index.js';

async function createFixture(existing?: { dataDir: string; database: string }): Promise<MessageArchiveFixture> {
  const dataDir = existing?.dataDir ?? mkdtempSync(join(tmpdir(), 'aalis-archive-pg-'));
  const database = existing?.database ?? (await throwawayDatabase());
  const app = new App({ logSinks: [memorySink()] });
  app.plugin(storagePlugin, { dataDir, database });
  app.plugin(memoryPlugin);
  app.plugin(archivePlugin);
  await app.start();
  const archive = app.registry.select(messageArchive.name)?.impl as MessageArchiveService | undefined;
  const memory = app.registry.select(memoryDescriptor.name)?.impl as MemoryService | undefined;
  if (!archive || !memory) throw new Error(`archive did not start: ${JSON.stringify(app.states())}`);
  return {
    archive,
    history: (sessionId) => memory.readAll(sessionId),
    async restart() {
      await app.stop();
      return createFixture({ dataDir, database });
    },
    async dispose() {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describeMessageArchiveConformance('plugin-message-archive on PostgreSQL', () => createFixture());
