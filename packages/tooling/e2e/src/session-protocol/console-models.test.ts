// Conformance: the console's model providers, platforms and personas (docs/session-protocol.md 「Models, platforms
// and personas」) against a real host: keys never sent in clear, a connection test that reaches the scripted model
// server or says what failed (refused, 404, 401), a new endpoint saved and running without a restart, model facts
// written to the file, each platform adapter's live state (a refused Telegram token names its key), personas
// created, edited and deleted — bad input and a stale revision change nothing, and a non-owner is refused each one.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  CONSOLE_MODELS_REQUESTS,
  type RequestType,
  type SessionClient,
  SessionClientError,
} from '@aalis/session-client';
import { type OpenAiTestServer, startBotApiServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, hostPerFile, loginCookie, waitFor } from './harness.case.js';

const KEY = 'sk-conformance-secret-1234';
const HEADER = 'org-header-secret-5678';
const MASK = '••••••••';

const botApi = await startBotApiServer({ token: '111:right-token' });
const closedPort = await freePort();

const file = hostPerFile({
  providerConfig: `    apiKey: ${KEY}\n    headers: { X-Org: ${HEADER} }\n`,
  extraConfig: `  platform-telegram:
    token: "111:wrong-token"
    apiRoot: ${botApi.url}
    retryDelayMs: 60000
  platform-onebot:
    url: ws://127.0.0.1:${closedPort}
    reconnect: { initialMs: 60000, maxMs: 60000 }
`,
});
let owner: SessionClient;
let second: OpenAiTestServer;

beforeAll(async () => {
  owner = clientFor(file.host, file.cookie);
  await owner.connect();
  second = await startOpenAiTestServer({ models: ['test-model', 'second-model'], apiKey: KEY });
});
afterAll(async () => {
  owner?.close();
  await second?.close();
  await botApi.close();
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessionClientError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

function configText(): string {
  return readFileSync(join(file.host.dir, 'aalis.config.yaml'), 'utf8');
}

async function revision(): Promise<string> {
  return (await owner.request('admin.providers.list', {})).revision;
}

describe('console models: owners only', () => {
  it('refuses every request to an account that is not an owner', async () => {
    const alice = file.track(clientFor(file.host, await loginCookie(file.host, 'alice')));
    await alice.connect();
    for (const type of CONSOLE_MODELS_REQUESTS) {
      const refused = await refusal(alice.request(type as RequestType, {} as never));
      expect(refused.code, type).toBe('AALIS_WEBUI_FORBIDDEN');
    }
  });
});

describe('admin.providers.*', () => {
  it('lists the endpoint with its models and never sends the key or a header value in clear', async () => {
    const listed = await owner.request('admin.providers.list', {});
    const openai = listed.providers.find((provider) => provider.kind === 'openai')!;
    expect(openai).toMatchObject({ configured: true, apiKeySet: true, headers: { 'X-Org': MASK }, state: 'active' });
    expect(openai.baseUrl).toBe(file.host.model.url);
    expect(openai.models.map((model) => model.id)).toContain('openai/test-model');
    expect(listed.revision).toMatch(/\S/);
    expect(JSON.stringify(listed)).not.toContain(KEY);
    expect(JSON.stringify(listed)).not.toContain(HEADER);
  });

  it('tests an endpoint: lists its models and makes one short call (the stored key used for the mask)', async () => {
    file.host.model.enqueue(textReply('OK from the scripted server'));
    const result = await owner.request('admin.providers.test', { kind: 'openai', apiKey: MASK });
    expect(result).toMatchObject({ ok: true, model: 'test-model', reply: 'OK from the scripted server' });
    expect(result.models).toContain('test-model');
    const call = file.host.model.requests.find((request) => request.path.endsWith('/chat/completions'))!;
    expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(call.headers['x-org']).toBe(HEADER);
  });

  it('says what failed and how to fix it: refused, 404 on /models, 401, a bad address', async () => {
    const refused = await owner.request('admin.providers.test', {
      kind: 'openai',
      baseUrl: `http://127.0.0.1:${closedPort}/v1`,
    });
    expect(refused.ok).toBe(false);
    expect(refused.problem).toMatchObject({ step: 'models', code: 'AALIS_PROVIDER_TEST_REFUSED' });
    expect(refused.problem!.message).toContain(`127.0.0.1:${closedPort}`);

    const notFound = await owner.request('admin.providers.test', {
      kind: 'openai',
      baseUrl: file.host.model.url.replace(/\/v1$/, ''),
    });
    expect(notFound.problem).toMatchObject({ step: 'models', code: 'AALIS_PROVIDER_TEST_NOT_FOUND' });
    expect(notFound.problem!.message).toContain('/v1');

    const wrongKey = await owner.request('admin.providers.test', {
      kind: 'openai',
      baseUrl: second.url,
      apiKey: 'sk-wrong',
    });
    expect(wrongKey.problem).toMatchObject({ step: 'models', code: 'AALIS_PROVIDER_TEST_AUTH' });
    expect(JSON.stringify(wrongKey)).not.toContain('sk-wrong');

    const address = await owner.request('admin.providers.test', { kind: 'openai', baseUrl: 'ftp://example' });
    expect(address.problem).toMatchObject({ step: 'address', code: 'AALIS_PROVIDER_TEST_ADDRESS' });
  });

  it('answers in the connection’s locale', async () => {
    const zh = file.track(clientFor(file.host, file.cookie));
    await zh.connect();
    await zh.setLocale('zh-CN');
    const refused = await zh.request('admin.providers.test', {
      kind: 'openai',
      baseUrl: `http://127.0.0.1:${closedPort}/v1`,
    });
    expect(refused.problem!.message).toContain('连接被拒绝');
  });

  it('refuses a stale revision and an invalid address, changing nothing', async () => {
    const before = configText();
    const stale = await refusal(
      owner.request('admin.providers.save', { kind: 'openai', baseUrl: second.url, revision: 'stale' }),
    );
    expect(stale.code).toBe('AALIS_HOST_CONFIG_CHANGED');
    const invalid = await refusal(
      owner.request('admin.providers.save', { kind: 'openai', baseUrl: 'ftp://nowhere', revision: await revision() }),
    );
    expect(invalid.code).toBe('AALIS_HOST_CONFIG_INVALID');
    const badKind = await refusal(
      owner.request('admin.providers.save', { kind: 'cohere' as 'openai', revision: await revision() }),
    );
    expect(badKind.code).toBe('AALIS_WEBUI_BAD_REQUEST');
    expect(configText()).toBe(before);
    expect((await owner.request('models.list', {})).models.map((model) => model.id)).toContain('openai/test-model');
  });

  it('saves a new endpoint live (the mask keeps the stored key), written to the file and audited', async () => {
    const saved = await owner.request('admin.providers.save', {
      kind: 'openai',
      baseUrl: second.url,
      apiKey: MASK,
      revision: await revision(),
    });
    expect(saved.provider).toMatchObject({ baseUrl: second.url, state: 'active' });
    expect(configText()).toContain(second.url);
    expect(configText()).toContain(KEY); // kept, not replaced by the mask
    // The next turn goes to the new endpoint, with the stored key: no restart.
    await owner.request('admin.preferences.set', { service: 'llm', value: 'openai/test-model' });
    second.enqueue(textReply('served by the second endpoint'));
    const session = (await owner.request('session.create', {})).session;
    await owner.request('send', { sessionId: session.id, text: 'hello' });
    await waitFor(async () => second.chatBodies().length > 0);
    expect(second.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    const audit = await owner.request('admin.audit.list', {});
    expect(JSON.stringify(audit)).toContain('admin.providers.save');
    expect(JSON.stringify(audit)).not.toContain(KEY);
  });

  it('edits a model’s facts into the provider’s models list; an invalid value changes nothing', async () => {
    const saved = await owner.request('admin.models.save', {
      kind: 'openai',
      model: 'second-model',
      facts: {
        name: 'Second',
        contextWindow: 32_000,
        vision: true,
        thinking: { levels: [{ id: 'low', name: 'Low' }], default: 'low' },
        prices: { promptPerMillion: 0.5, completionPerMillion: 1.5, currency: 'USD' },
      },
      revision: await revision(),
    });
    const model = saved.provider.models.find((entry) => entry.model === 'second-model')!;
    expect(model).toMatchObject({ name: 'Second', contextWindow: 32_000, vision: true, configured: true });
    expect(model.prices).toMatchObject({ promptPerMillion: 0.5 });
    expect(model.thinking?.default).toBe('low');
    const before = configText();
    expect(before).toContain('contextWindow: 32000');
    const invalid = await refusal(
      owner.request('admin.models.save', {
        kind: 'openai',
        model: 'second-model',
        facts: { contextWindow: -5 },
        revision: await revision(),
      }),
    );
    expect(invalid.code).toBe('AALIS_HOST_CONFIG_INVALID');
    expect(configText()).toBe(before);
  });

  it('deletes the endpoint live: its models go and the default model preference with them', async () => {
    await owner.request('admin.providers.delete', { kind: 'openai', revision: await revision() });
    const listed = await owner.request('admin.providers.list', {});
    expect(listed.providers.find((provider) => provider.kind === 'openai')?.configured).toBe(false);
    const models = (await owner.request('models.list', {})).models.map((model) => model.id);
    expect(models.some((id) => id.startsWith('openai/'))).toBe(false);
    expect((await owner.request('admin.preferences.get', {})).preferences.global.llm).toBeUndefined();
  });
});

describe('admin.platforms', () => {
  it('lists each adapter’s live state: a refused Telegram token names its key, OneBot reconnecting with a time', async () => {
    let platforms = (await owner.request('admin.platforms', {})).platforms;
    await waitFor(async () => {
      platforms = (await owner.request('admin.platforms', {})).platforms;
      return (
        platforms.find((entry) => entry.id === 'telegram')?.status === 'refused' &&
        platforms.find((entry) => entry.id === 'onebot')?.status === 'reconnecting'
      );
    }, 15_000);
    const telegram = platforms.find((entry) => entry.id === 'telegram')!;
    expect(telegram).toMatchObject({
      configKey: 'plugins.platform-telegram.token',
      plugin: '@aalis/plugin-platform-telegram',
      error: { code: 'AALIS_TELEGRAM_TOKEN_REJECTED' },
    });
    expect(telegram.nextAttemptAt).toBeGreaterThan(Date.now());
    expect(JSON.stringify(platforms)).not.toContain('wrong-token');
    const onebot = platforms.find((entry) => entry.id === 'onebot')!;
    expect(onebot.error?.code).toBe('AALIS_ONEBOT_CONNECT_FAILED');
    expect(onebot.nextAttemptAt).toBeGreaterThan(Date.now());
  });
});

describe('admin.personas.*', () => {
  it('lists, creates, reads, edits and deletes a persona; a stale revision and bad fields change nothing', async () => {
    const listed = await owner.request('admin.personas.list', {});
    const fallback = listed.personas.find((persona) => persona.isDefault)!;
    expect(fallback.id).toBe('default');
    const created = await owner.request('admin.personas.save', { personaId: 'pirate', name: 'Pirate', prompt: 'Arr.' });
    expect(created.persona).toMatchObject({ id: 'pirate', file: 'pirate.yaml', isDefault: false });
    const again = await refusal(owner.request('admin.personas.save', { personaId: 'pirate', name: 'P', prompt: 'p' }));
    expect(again.code).toBe('AALIS_PERSONA_EXISTS');
    const badId = await refusal(
      owner.request('admin.personas.save', { personaId: 'no spaces', name: 'P', prompt: 'p' }),
    );
    expect(badId.code).toBe('AALIS_PERSONA_ID_INVALID');
    const read = await owner.request('admin.personas.get', { personaId: 'pirate' });
    const edited = await owner.request('admin.personas.save', {
      personaId: 'pirate',
      name: 'Captain',
      prompt: 'Arr, matey.',
      revision: read.persona.revision,
    });
    expect(edited.persona.name).toBe('Captain');
    const stale = await refusal(
      owner.request('admin.personas.save', {
        personaId: 'pirate',
        name: 'X',
        prompt: 'Y',
        revision: read.persona.revision,
      }),
    );
    expect(stale.code).toBe('AALIS_PERSONA_CHANGED');
    expect((await owner.request('admin.personas.get', { personaId: 'pirate' })).persona.name).toBe('Captain');
    expect((await owner.request('personas.list', {})).personas.map((option) => option.value)).toContain('pirate');
    const keptDefault = await refusal(
      owner.request('admin.personas.delete', { personaId: 'default', revision: fallback.revision }),
    );
    expect(keptDefault.code).toBe('AALIS_PERSONA_DEFAULT_KEPT');
    await owner.request('admin.personas.delete', { personaId: 'pirate', revision: edited.persona.revision });
    const unknown = await refusal(owner.request('admin.personas.get', { personaId: 'pirate' }));
    expect(unknown.code).toBe('AALIS_PERSONA_UNKNOWN');
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
