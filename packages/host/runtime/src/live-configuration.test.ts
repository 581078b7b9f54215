// The console's configuration changes against a real start (mode none, the offline model): a change is applied live
// and written back keeping the file's comments; an invalid value, a file edited meanwhile and a plugin that fails to
// start change nothing; a plugin turned off stops (its dependants wait) and comes back with its section.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostConfigService, hostConfig, SECRET_MASK } from '@aalis/api-host-config';
import { AalisError } from '@aalis/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revisionOf } from './config-document.js';
import { type RunningAalis, startAalis } from './start-aalis.js';

const CONFIG = `# my deployment
locale: en
consoleLogLevel: off

plugins:
  # the turn engine
  agent:
    systemPrompt: "Be brief."   # house rules
  memory-summary: { maxSummaryTokens: 600 }
  media:
    describeModel: ""
`;

let dir: string;
let aalis: RunningAalis;
let service: HostConfigService;
const file = () => join(dir, 'aalis.config.yaml');
const text = () => readFileSync(file(), 'utf8');
const state = (id: string) => aalis.app.stateOf(id).state;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-live-config-'));
  writeFileSync(file(), CONFIG);
  aalis = await startAalis({ cwd: dir, env: {}, mode: 'none', banner: false });
  const provider = aalis.app.services.providers(hostConfig)[0];
  if (!provider) throw new Error('no hostConfig service');
  service = provider.impl;
}, 60_000);

afterAll(async () => {
  await aalis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<AalisError> {
  try {
    await promise;
  } catch (error) {
    if (AalisError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('the change was not refused');
}

describe('hostConfig.write', () => {
  it('applies a section live and writes it back keeping comments and key order', async () => {
    const read = await service.read(['plugins', 'agent']);
    expect(read).toMatchObject({ value: { systemPrompt: 'Be brief.' }, revision: revisionOf(CONFIG), source: 'file' });
    const seen: string[] = [];
    const off = aalis.app.events.on('plugin:state', (info) => {
      if (info.id === '@aalis/plugin-agent') seen.push(info.state);
    });
    const result = await service.write(['plugins', 'agent'], { systemPrompt: 'Answer in French.' }, read.revision);
    off();
    expect(seen[0]).toBe('deactivating');
    expect(seen.slice(-2)).toEqual(['activating', 'active']);
    expect(text()).toBe(CONFIG.replace('"Be brief."', '"Answer in French."'));
    expect(result.revision).toBe(revisionOf(text()));
    expect(result.changes).toEqual([
      { key: 'plugins.agent.systemPrompt', old: 'Be brief.', new: 'Answer in French.', secret: false },
    ]);
    expect(result.applied.map((info) => [info.id, info.state])).toEqual([['@aalis/plugin-agent', 'active']]);
  });

  it('refuses an invalid value with per-field issues in the asked locale and changes nothing', async () => {
    const before = text();
    const { revision } = await service.read([]);
    const error = await refusal(
      service.write(['plugins', 'memory-summary'], { maxSummaryTokens: 'six', extra: 1 }, revision, {
        locale: 'zh-CN',
      }),
    );
    expect(error.code).toBe('AALIS_HOST_CONFIG_INVALID');
    const issues = error.details.issues as { path: string; expected: string }[];
    expect(issues.map((issue) => issue.path)).toEqual([
      'plugins.memory-summary.maxSummaryTokens',
      'plugins.memory-summary.extra',
    ]);
    expect(issues[0]!.expected).toContain('整数');
    expect(error.localized('zh-CN')).toContain('没有改动任何东西');
    expect(text()).toBe(before);
    expect(state('@aalis/plugin-memory-summary')).toBe('active');
  });

  it('refuses to overwrite a file edited by hand since it was read', async () => {
    const { revision } = await service.read(['plugins', 'agent']);
    const edited = text().replace('# house rules', '# house rules (edited by hand)');
    writeFileSync(file(), edited);
    const error = await refusal(service.write(['plugins', 'agent'], { systemPrompt: 'Lost?' }, revision));
    expect(error.code).toBe('AALIS_HOST_CONFIG_CHANGED');
    expect(error.message).toContain('Reload');
    expect(text()).toBe(edited);
  });

  it('keeps the previous configuration running when the plugin does not start with the new values', async () => {
    const { revision } = await service.read([]);
    const before = text();
    const error = await refusal(
      service.write(['plugins', 'media'], { transcription: { baseUrl: 'ftp://127.0.0.1/whisper' } }, revision),
    );
    expect(error.code).toBe('AALIS_HOST_CONFIG_START_FAILED');
    expect(error.details.cause).toBe('AALIS_MEDIA_TRANSCRIPTION_URL_INVALID');
    expect(text()).toBe(before);
    expect(state('@aalis/plugin-media')).toBe('active');
  });

  it('keeps a secret sent back as the mask and never reports its value', async () => {
    const { revision } = await service.read([]);
    const first = await service.write(
      ['plugins', 'media'],
      { transcription: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-kept-4711' } },
      revision,
    );
    expect(first.changes.find((change) => change.key.endsWith('apiKey'))).toEqual({
      key: 'plugins.media.transcription.apiKey',
      old: undefined,
      new: SECRET_MASK,
      secret: true,
    });
    const read = await service.read(['plugins', 'media']);
    expect(read.secrets).toEqual(['transcription.apiKey']);
    const second = await service.write(
      ['plugins', 'media'],
      { transcription: { baseUrl: 'http://127.0.0.1:10/v1', apiKey: SECRET_MASK } },
      read.revision,
    );
    expect(text()).toContain('apiKey: sk-kept-4711');
    // From now on the log sinks redact it like a key configured at the start.
    expect(aalis.config.secrets).toContain('sk-kept-4711');
    expect(second.changes.map((change) => change.key)).toEqual(['plugins.media.transcription.baseUrl']);
    expect(state('@aalis/plugin-media')).toBe('active');
  });

  it('turns a plugin off (its dependants wait) and on again with its section', async () => {
    const console = service;
    let { revision } = await service.read([]);
    await console.setEnabled('@aalis/plugin-tools', false, revision);
    expect(text()).toContain('  tools: false\n');
    expect(aalis.app.states().some((info) => info.id === '@aalis/plugin-tools')).toBe(false);
    expect(state('@aalis/runtime/basic-tools')).toBe('pending');
    expect(service.plugins('zh-CN').find((plugin) => plugin.alias === 'tools')).toMatchObject({
      enabled: false,
      running: false,
      description: '工具登记与执行。',
    });
    ({ revision } = await service.read([]));
    await console.setEnabled('tools', true, revision);
    expect(text()).not.toContain('tools:');
    expect(state('@aalis/plugin-tools')).toBe('active');
    expect(state('@aalis/runtime/basic-tools')).toBe('active');

    ({ revision } = await service.read([]));
    await console.setEnabled('memory-summary', false, revision);
    expect(text()).toContain('memory-summary: false');
    ({ revision } = await service.read([]));
    await console.setEnabled('memory-summary', true, revision);
    expect(text()).toContain('  memory-summary:\n    maxSummaryTokens: 600\n');
    expect(state('@aalis/plugin-memory-summary')).toBe('active');
  });

  it('refuses to turn off what the console runs on', async () => {
    const console = service;
    const { revision } = await service.read([]);
    const error = await refusal(console.setEnabled('storage', false, revision));
    expect(error.code).toBe('AALIS_HOST_CONFIG_PROTECTED');
    expect(service.plugins('en').find((plugin) => plugin.alias === 'agent')).toMatchObject({ canDisable: false });
  });
});
