// Conformance: the console's plugin settings (admin.config.get/set), on/off switches (admin.plugins.enable/disable),
// the plugin list's descriptions and the audit log (admin.audit.list). A change is applied live (the next model call
// carries a new system prompt) and written back keeping the file's comments; an invalid value, a file edited by hand
// meanwhile and a plugin that fails to start change nothing; secrets never leave the host; a non-owner is refused.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_SECRET_MASK, type SessionClient, SessionClientError } from '@aalis/session-client';
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { clientFor, hostPerFile, loginCookie, waitFor } from './harness.case.js';

const { host, track, connected } = hostPerFile({
  extraConfig: `  # the turn engine, set from the console
  agent:
    systemPrompt: "Be brief."   # house rules
  media:
    describeModel: ""
`,
});

const SECRET = 'sk-transcribe-4711-secret';
const file = () => join(host.dir, 'aalis.config.yaml');
const text = () => readFileSync(file(), 'utf8');

async function refusal(promise: Promise<unknown>): Promise<SessionClientError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessionClientError) return error;
    throw error;
  }
  throw new Error('the request was not refused');
}

async function owner(): Promise<SessionClient> {
  return connected();
}

describe('admin.plugins', () => {
  it('lists every plugin the host knows with its description, switch and whether it has a form', async () => {
    const client = await owner();
    const { plugins } = await client.request('admin.plugins', {});
    const agent = plugins.find((plugin) => plugin.id === '@aalis/plugin-agent');
    expect(agent).toMatchObject({ state: 'active', configurable: true, enabled: true, canDisable: false });
    expect(agent?.description).toBe('The conversation orchestrator (the turn engine).');
    expect(plugins.find((plugin) => plugin.id === '@aalis/plugin-platform-telegram')).toMatchObject({
      state: 'unconfigured',
      enabled: true,
      configurable: true,
    });
    expect(plugins.every((plugin) => typeof plugin.description === 'string' && plugin.description !== '')).toBe(true);
    await client.setLocale('zh-CN');
    const chinese = (await client.request('admin.plugins', {})).plugins;
    expect(chinese.find((plugin) => plugin.id === '@aalis/plugin-agent')?.description).toBe('对话编排器（轮次引擎）。');
  });
});

describe('admin.config', () => {
  it('gives the schema and the stored values, and applies a change live, written back with the comments', async () => {
    const client = await owner();
    const config = await client.request('admin.config.get', { plugin: '@aalis/plugin-agent' });
    expect(config).toMatchObject({
      plugin: '@aalis/plugin-agent',
      key: 'plugins.agent',
      values: { systemPrompt: 'Be brief.' },
      source: 'file',
    });
    expect(config.schema.fields?.systemPrompt).toMatchObject({ type: 'string', widget: 'textarea' });
    const result = await client.request('admin.config.set', {
      plugin: '@aalis/plugin-agent',
      values: { ...config.values, systemPrompt: 'Always answer in French.' },
      revision: config.revision,
    });
    expect(result.plugin).toMatchObject({ id: '@aalis/plugin-agent', state: 'active' });
    expect(result.changes).toEqual([
      { key: 'plugins.agent.systemPrompt', old: 'Be brief.', new: 'Always answer in French.', secret: false },
    ]);
    expect(text()).toContain(
      '  # the turn engine, set from the console\n  agent:\n    systemPrompt: "Always answer in French."   # house rules\n',
    );

    // The next model call carries the new prompt: the change runs without a restart.
    host.model.enqueue(textReply('Bonjour.'));
    const { session } = await client.request('session.create', {});
    await client.send({ sessionId: session.id, text: 'hello' });
    await waitFor(() => host.model.chatBodies().length > 0);
    expect(JSON.stringify(host.model.chatBodies().at(-1)?.messages)).toContain('Always answer in French.');

    const { entries } = await client.request('admin.audit.list', { limit: 5 });
    expect(entries[0]).toMatchObject({
      actor: { platform: 'webui', userId: 'owner' },
      action: 'config.set',
      key: 'plugins.agent.systemPrompt',
      old: 'Be brief.',
      new: 'Always answer in French.',
      secret: false,
    });
    expect(Math.abs(entries[0]!.at - Date.now())).toBeLessThan(60_000);
  });

  it('refuses an invalid value with each problem in the connection’s language and changes nothing', async () => {
    const client = await owner();
    await client.setLocale('zh-CN');
    const before = text();
    const config = await client.request('admin.config.get', { plugin: 'memory-summary' });
    const error = await refusal(
      client.request('admin.config.set', {
        plugin: 'memory-summary',
        values: { maxSummaryTokens: 10, nonsense: true },
        revision: config.revision,
      }),
    );
    expect(error.code).toBe('AALIS_HOST_CONFIG_INVALID');
    expect(error.message).toContain('没有改动任何东西');
    const issues = error.details?.issues as { path: string; expected: string }[];
    expect(issues.map((issue) => issue.path)).toEqual([
      'plugins.memory-summary.maxSummaryTokens',
      'plugins.memory-summary.nonsense',
    ]);
    expect(issues[0]!.expected).toContain('≥ 64');
    expect(text()).toBe(before);
  });

  it('refuses to overwrite the file when it was edited by hand since the page read it', async () => {
    const client = await owner();
    const config = await client.request('admin.config.get', { plugin: 'agent' });
    const edited = text().replace('# house rules', '# house rules, edited by hand');
    writeFileSync(file(), edited);
    const error = await refusal(
      client.request('admin.config.set', { plugin: 'agent', values: { systemPrompt: 'x' }, revision: config.revision }),
    );
    expect(error.code).toBe('AALIS_HOST_CONFIG_CHANGED');
    expect(text()).toBe(edited);
  });

  it('keeps the previous settings running when the plugin fails to start with the new ones', async () => {
    const client = await owner();
    const config = await client.request('admin.config.get', { plugin: 'media' });
    const before = text();
    const error = await refusal(
      client.request('admin.config.set', {
        plugin: 'media',
        values: { transcription: { baseUrl: 'ftp://127.0.0.1/whisper' } },
        revision: config.revision,
      }),
    );
    expect(error.code).toBe('AALIS_HOST_CONFIG_START_FAILED');
    expect(error.details?.cause).toBe('AALIS_MEDIA_TRANSCRIPTION_URL_INVALID');
    expect(text()).toBe(before);
    const { plugins } = await client.request('admin.plugins', {});
    expect(plugins.find((plugin) => plugin.id === '@aalis/plugin-media')?.state).toBe('active');
  });

  it('masks secrets in what it sends, keeps one sent back masked, and audits it without its value', async () => {
    const client = await owner();
    let config = await client.request('admin.config.get', { plugin: 'media' });
    const saved = await client.request('admin.config.set', {
      plugin: 'media',
      values: { transcription: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: SECRET } },
      revision: config.revision,
    });
    expect(JSON.stringify(saved)).not.toContain(SECRET);
    config = await client.request('admin.config.get', { plugin: 'media' });
    expect(config.values).toEqual({ transcription: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: CONFIG_SECRET_MASK } });
    expect(config.secrets).toEqual(['transcription.apiKey']);
    await client.request('admin.config.set', {
      plugin: 'media',
      values: { transcription: { baseUrl: 'http://127.0.0.1:10/v1', apiKey: CONFIG_SECRET_MASK } },
      revision: config.revision,
    });
    expect(text()).toContain(`apiKey: ${SECRET}`);
    const audit = await client.request('admin.audit.list', { limit: 200 });
    expect(JSON.stringify(audit)).not.toContain(SECRET);
    expect(audit.entries.find((entry) => entry.key === 'plugins.media.transcription.apiKey')).toMatchObject({
      new: CONFIG_SECRET_MASK,
      secret: true,
    });
  });
});

describe('admin.plugins.enable / disable', () => {
  it('turns a plugin off (its dependants wait) and on again, audited', async () => {
    const client = await owner();
    const off = await client.request('admin.plugins.disable', { plugin: 'tools' });
    expect(off.plugin.state).toBe('disabled');
    expect(text()).toContain('  tools: false\n');
    let { plugins } = await client.request('admin.plugins', {});
    expect(plugins.find((plugin) => plugin.id === '@aalis/runtime/basic-tools')?.state).toBe('pending');
    const on = await client.request('admin.plugins.enable', { plugin: '@aalis/plugin-tools' });
    expect(on.plugin.state).toBe('active');
    ({ plugins } = await client.request('admin.plugins', {}));
    expect(plugins.find((plugin) => plugin.id === '@aalis/runtime/basic-tools')?.state).toBe('active');
    expect(text()).not.toContain('tools: false');
    const { entries } = await client.request('admin.audit.list', { limit: 2 });
    expect(entries.map((entry) => [entry.action, entry.key, entry.old, entry.new])).toEqual([
      ['plugin.enable', 'plugins.tools', false, true],
      ['plugin.disable', 'plugins.tools', true, false],
    ]);
    const older = await client.request('admin.audit.list', { limit: 1, before: entries[1]!.id });
    expect(older.entries[0]!.id).toBeLessThan(entries[1]!.id);
  });

  it('refuses to turn off a plugin the host or the console cannot run without', async () => {
    const client = await owner();
    const error = await refusal(client.request('admin.plugins.disable', { plugin: 'agent' }));
    expect(error.code).toBe('AALIS_HOST_CONFIG_PROTECTED');
    expect(text()).not.toContain('agent: false');
  });
});

describe('owner only', () => {
  it('refuses every console configuration request to a non-owner, and changes nothing', async () => {
    const alice = track(clientFor(host, await loginCookie(host, 'alice')));
    await alice.connect();
    const before = text();
    const requests = [
      alice.request('admin.config.get', { plugin: 'agent' }),
      alice.request('admin.config.set', { plugin: 'agent', values: { systemPrompt: 'x' }, revision: 'x' }),
      alice.request('admin.plugins.enable', { plugin: 'tools' }),
      alice.request('admin.plugins.disable', { plugin: 'tools' }),
      alice.request('admin.audit.list', {}),
    ];
    for (const request of requests) expect((await refusal(request)).code).toBe('AALIS_WEBUI_FORBIDDEN');
    expect(text()).toBe(before);
  });

  it('answers bad parameters with a coded error', async () => {
    const client = await owner();
    expect((await refusal(client.request('admin.config.get', { plugin: 'no-such-plugin' }))).code).toBe(
      'AALIS_HOST_CONFIG_UNKNOWN_PLUGIN',
    );
    const config = await client.request('admin.config.get', { plugin: 'agent' });
    expect(
      (
        await refusal(
          client.request('admin.config.set', { plugin: 'agent', values: 'x' as never, revision: config.revision }),
        )
      ).code,
    ).toBe('AALIS_WEBUI_BAD_REQUEST');
    expect((await refusal(client.request('admin.audit.list', { limit: 0 }))).code).toBe('AALIS_WEBUI_BAD_REQUEST');
  });
});
