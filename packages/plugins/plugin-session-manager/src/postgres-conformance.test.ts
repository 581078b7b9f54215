// The session manager conformance suite on PostgreSQL (the same suite as conformance.test.ts on SQLite).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSessionManagerConformance } from '@aalis/api-session-manager/conformance';
import { App, memorySink } from '@aalis/core';
import storagePlugin from '@aalis/plugin-storage';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import plugin from './index.js';

describeSessionManagerConformance('@aalis/plugin-session-manager on PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'aalis-sessions-pg-'));
  const url = throwawayDatabase();
  let app: App | undefined;
  return {
    async start(extras) {
      app = new App({ logSinks: [memorySink()], locale: 'en' });
      app.plugin(storagePlugin, { dataDir, database: await url });
      app.plugin(plugin);
      for (const extra of extras) app.plugin(extra);
      await app.start();
      return app;
    },
    async stop() {
      await app?.stop();
      app = undefined;
    },
    async dispose() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
