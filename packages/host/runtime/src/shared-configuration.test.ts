// The console's configuration changes on PostgreSQL: stored in the database every process shares, not in a host's
// file; another process applies a change live and a later start runs with it; a file edited by hand at that key
// wins over the stored change (the most recent intent).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostConfigService, hostConfig } from '@aalis/api-host-config';
import { postgresBinDir, throwawayDatabase } from '@aalis/postgres/throwaway';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningAalis, startAalis } from './start-aalis.js';

const CONFIG = `locale: en
consoleLogLevel: off
plugins:
  agent:
    systemPrompt: "Be brief."   # house rules
`;

const dirs: string[] = [];
const running: RunningAalis[] = [];
afterAll(async () => {
  for (const aalis of running.splice(0)) await aalis.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function host(
  database: string,
  name: string,
  dir?: string,
): Promise<{ aalis: RunningAalis; service: HostConfigService; dir: string }> {
  const home = dir ?? mkdtempSync(join(tmpdir(), `aalis-shared-config-${name}-`));
  if (!dir) {
    dirs.push(home);
    writeFileSync(join(home, 'aalis.config.yaml'), CONFIG);
  }
  // A URL of its own per host: its own pool and listening connection, as on another machine.
  const aalis = await startAalis({
    cwd: home,
    env: { AALIS_DATABASE_URL: `${database}?application_name=${name}` },
    mode: 'none',
    banner: false,
  });
  running.push(aalis);
  const service = aalis.app.services.providers(hostConfig)[0]!.impl;
  return { aalis, service, dir: home };
}

const promptOf = (aalis: RunningAalis) =>
  aalis.config.plugins.find((plugin) => plugin.slot.alias === 'agent')?.section.systemPrompt;

describe.skipIf(postgresBinDir() === undefined)('console configuration on PostgreSQL', () => {
  it('is shared by every process, applied live elsewhere, kept for the next start; a hand edit wins', async () => {
    const database = await throwawayDatabase();
    const a = await host(database, 'a');
    const b = await host(database, 'b');
    expect(a.service.source).toBe('database');

    const seenOnB: string[] = [];
    b.aalis.app.events.on('plugin:state', (info) => {
      if (info.id === '@aalis/plugin-agent') seenOnB.push(info.state);
    });
    const { revision } = await a.service.read(['plugins', 'agent']);
    const result = await a.service.write(['plugins', 'agent'], { systemPrompt: 'Answer in French.' }, revision);
    expect(result.applied.map((state) => state.state)).toEqual(['active']);
    // Not in A's file: in the database.
    expect(readFileSync(join(a.dir, 'aalis.config.yaml'), 'utf8')).toBe(CONFIG);
    expect((await a.service.read(['plugins', 'agent', 'systemPrompt'])).value).toBe('Answer in French.');

    // B applies it live.
    await expect.poll(() => seenOnB.at(-1), { timeout: 10_000 }).toBe('active');
    expect(seenOnB[0]).toBe('deactivating');
    expect((await b.service.read(['plugins', 'agent', 'systemPrompt'])).value).toBe('Answer in French.');

    // A stale revision from before the change is refused.
    const stale = await a.service.write(['plugins', 'agent'], { systemPrompt: 'x' }, revision).then(
      () => 'written',
      (error: { code?: string }) => error.code,
    );
    expect(stale).toBe('AALIS_HOST_CONFIG_CHANGED');

    // A later start of B runs with it.
    await b.aalis.stop();
    running.splice(running.indexOf(b.aalis), 1);
    const again = await host(database, 'b2', b.dir);
    expect(promptOf(again.aalis)).toBe('Answer in French.');

    // B's file edited by hand at that key: the file wins there.
    await again.aalis.stop();
    running.splice(running.indexOf(again.aalis), 1);
    writeFileSync(join(b.dir, 'aalis.config.yaml'), CONFIG.replace('Be brief.', 'Edited by hand.'));
    const edited = await host(database, 'b3', b.dir);
    expect(promptOf(edited.aalis)).toBe('Edited by hand.');
    // A's file still holds what the change replaced: there it still applies.
    expect((await a.service.read(['plugins', 'agent', 'systemPrompt'])).value).toBe('Answer in French.');
  }, 120_000);
});
