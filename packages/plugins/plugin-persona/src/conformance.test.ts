// Runs the persona conformance suite against plugin-persona on a temporary data directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describePersonaConformance } from '@aalis/api-persona/conformance';
import { App, memorySink } from '@aalis/core';
import storagePlugin from '@aalis/plugin-storage';
import plugin from './index.js';

describePersonaConformance('@aalis/plugin-persona', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'aalis-personas-'));
  let app: App | undefined;
  return {
    dir: join(dataDir, 'personas'),
    async start(extras) {
      app = new App({ logSinks: [memorySink()], locale: 'en' });
      app.plugin(storagePlugin, { dataDir });
      for (const extra of extras) app.plugin(extra);
      app.plugin(plugin);
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
