// The README's first command on a fresh clone (the first thing a new user meets): nothing built before, `npm install &&
// npm start` installs without a warning to wonder about, builds the command and the WebUI page on the first start (said
// on standard error), prints a login link, and the page it opens answers a message with the offline model's streamed
// reply. The clone is the repository's committed HEAD; npm uses this machine's cache (and the better-sqlite3 build
// scripts/cache-native-builds.mjs keeps), so the install is unpacking, not downloading or compiling.
import { afterAll, describe, expect, it } from 'vitest';
import { type FreshCloneRun, firstContact } from './fresh-clone.case.js';

/** An install that has to compile better-sqlite3 (no cached build) takes minutes on two cores. */
const INSTALL_TIMEOUT_MS = 420_000;
const MESSAGE = 'hello from a fresh clone';
let run: FreshCloneRun | undefined;

afterAll(async () => {
  await run?.stop();
}, 60_000);

describe('a fresh clone, exactly as the README says', () => {
  it(
    'npm install && npm start serves the WebUI, which gets a reply from the offline model',
    async () => {
      run = await firstContact({ message: MESSAGE, installTimeoutMs: INSTALL_TIMEOUT_MS });
      expect(run.reply).toMatch(/离线演示模型|Offline demo model/);
      // No warning from the install: the benchmark package's peers need no newer Node than the one supported.
      expect(`${run.stdout()}\n${run.stderr()}`).not.toMatch(/npm warn|EBADENGINE/i);
      // The first start builds what it runs, and says so on standard error.
      expect(run.stderr()).toContain('Building Aalis (first start)…');
      expect(run.stderr()).toContain('Building the WebUI page (first start)…');
      expect(run.stderr()).not.toContain('could not be built');
      process.stdout.write(
        `first contact: clone ${run.times.cloned} ms, install done ${run.times.installed} ms, link ${run.times.link} ms, page ${run.times.page} ms, reply ${run.times.reply} ms after git clone started\n`,
      );
    },
    INSTALL_TIMEOUT_MS + 120_000,
  );
});
