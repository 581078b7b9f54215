// startAalis in-process (mode "none": no terminal): the default plugin set against the scripted model server.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gateway } from '@aalis/api-gateway';
import { memory } from '@aalis/api-memory';
import type { OutgoingMessage } from '@aalis/schema-message';
import { type OpenAiTestServer, startOpenAiTestServer, textReply, toolCallReply } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningAalis, type StartAalisOptions, startAalis } from './start-aalis.js';

let server: OpenAiTestServer;
const API_KEY = 'sk-test-very-secret-4711';
beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['test-model'], apiKey: API_KEY });
});
afterAll(() => server.close());

const dirs: string[] = [];
const running: RunningAalis[] = [];
afterEach(async () => {
  for (const aalis of running.splice(0)) await aalis.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  server.reset();
});

function workspace(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-runtime-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'aalis.config.yaml'), config);
  return dir;
}

const serverConfig = (extra = '') => `locale: en
logLevel: trace
llm:
  baseUrl: ${server.url}
  apiKey: ${API_KEY}
  model: test-model
plugins:
  llm-openai:
    fetchModels: false
    retry: { maxRetries: 0 }
${extra}`;

async function start(dir: string, options: Partial<StartAalisOptions> = {}) {
  const errors = new PassThrough();
  let errorText = '';
  errors.on('data', (chunk: Buffer) => {
    errorText += chunk.toString('utf8');
  });
  const aalis = await startAalis({ cwd: dir, env: {}, mode: 'none', errorOutput: errors, output: errors, ...options });
  running.push(aalis);
  return { aalis, errors: () => errorText };
}

async function say(aalis: RunningAalis, content: string, sessionId = 'api:test'): Promise<OutgoingMessage[]> {
  const replies: OutgoingMessage[] = [];
  const off = aalis.app.events.on('outbound:message', (message) => {
    if (message.sessionId === sessionId) replies.push(message);
  });
  await aalis.app.services.selected(gateway)!.impl.receive({
    sessionId,
    platform: 'api',
    sender: { userId: 'tester' },
    content,
  });
  off();
  return replies;
}

describe('startAalis', () => {
  it('boots the default plugin set, all active, with the configured model', async () => {
    const { aalis } = await start(workspace(serverConfig()));
    expect(aalis.app.states().filter((state) => state.state !== 'active')).toEqual([]);
    expect(aalis.model).toMatchObject({ id: 'openai/test-model' });
    server.enqueue(textReply('Hello from the model.'));
    const replies = await say(aalis, 'hi');
    expect(replies.map((reply) => reply.content)).toEqual(['Hello from the model.']);
    expect(server.chatBodies()[0]).toMatchObject({ model: 'test-model' });
  });

  it('runs the tool loop with the built-in tools', async () => {
    const { aalis } = await start(workspace(serverConfig()));
    server.enqueue(toolCallReply([{ name: 'calculator', arguments: { expression: '6*7' } }]), textReply('42.'));
    await say(aalis, 'what is 6*7?');
    const second = server.chatBodies()[1] as { messages: Array<{ role: string; content: string }> };
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: '42' });
    const toolNames = (server.chatBodies()[0]!.tools as Array<{ function: { name: string } }>).map(
      (tool) => tool.function.name,
    );
    expect(toolNames).toEqual(expect.arrayContaining(['calculator', 'current_time', 'prompt_budget_info']));
  });

  it('logs to a file in <dataDir>/logs and never logs the API key', async () => {
    const dir = workspace(serverConfig());
    const { aalis } = await start(dir);
    server.enqueue(textReply('ok'));
    await say(aalis, 'hi');
    await aalis.stop();
    const logs = readdirSync(join(dir, 'data', 'logs'));
    expect(logs).toEqual(['aalis.log']);
    const text = readFileSync(join(dir, 'data', 'logs', 'aalis.log'), 'utf8');
    expect(text).toContain('回合结束');
    expect(text).not.toContain(API_KEY);
  });

  it('keeps service preferences changed at run time across restarts', async () => {
    const dir = workspace(serverConfig());
    const first = await start(dir);
    first.aalis.app.services.setPluginPreference('@aalis/plugin-agent', 'llm', 'openai/test-model');
    first.aalis.app.services.setGlobalPreference('llm', 'offline/demo');
    await first.aalis.stop();
    const second = await start(dir);
    expect(second.aalis.app.services.preferences()).toEqual({
      global: { llm: 'offline/demo' },
      plugins: { '@aalis/plugin-agent': { llm: 'openai/test-model' } },
    });
  });

  it('keeps the history across restarts', async () => {
    const dir = workspace(serverConfig());
    const first = await start(dir);
    server.enqueue(textReply('Noted: your name is Ada.'));
    await say(first.aalis, 'My name is Ada.');
    await first.aalis.stop();
    const second = await start(dir);
    const history = await second.aalis.app.services.selected(memory)!.impl.readAll('api:test');
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(history[1]!.content).toBe('Noted: your name is Ada.');
  });

  it('says in the banner that the offline model answers and how to configure a real one', async () => {
    const { aalis, errors } = await start(workspace('locale: en\n'), { banner: true });
    expect(aalis.model).toMatchObject({ offline: true });
    expect(errors()).toContain('No model endpoint is configured: replies come from the offline demo model');
    expect(errors()).toContain('AALIS_LLM_BASE_URL');
    const replies = await say(aalis, 'hello');
    expect(replies[0]!.content).toContain('Offline demo model');
  });

  it('refuses to run when a required plugin cannot start, and stops what it started', async () => {
    const dir = workspace('locale: en\n');
    mkdirSync(join(dir, 'data', 'aalis.db'), { recursive: true }); // the database cannot be opened
    await expect(
      startAalis({ cwd: dir, env: {}, mode: 'none', banner: false, errorOutput: new PassThrough() }),
    ).rejects.toMatchObject({
      code: 'AALIS_RUNTIME_ESSENTIAL_INACTIVE',
      message: expect.stringContaining('@aalis/plugin-storage'),
    });
  });

  it('says so when the data directory cannot be used', async () => {
    const dir = workspace('locale: en\ndataDir: ./not-a-directory\n');
    writeFileSync(join(dir, 'not-a-directory'), 'a file');
    await expect(
      startAalis({ cwd: dir, env: {}, mode: 'none', banner: false, errorOutput: new PassThrough() }),
    ).rejects.toMatchObject({
      code: 'AALIS_RUNTIME_DATA_DIR_UNUSABLE',
    });
  });

  it('throws the configuration problems before creating anything', async () => {
    const dir = workspace('locale: en\nllm:\n  contextWindow: lots\n');
    await expect(
      startAalis({ cwd: dir, env: {}, mode: 'none', banner: false, errorOutput: new PassThrough() }),
    ).rejects.toMatchObject({
      code: 'AALIS_RUNTIME_CONFIG_INVALID',
      details: { problems: [expect.objectContaining({ path: 'llm.contextWindow' })] },
    });
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });
});

describe('the start banner', () => {
  it('says when the configured endpoint offers no model', async () => {
    const dir = workspace(
      `locale: en\nllm:\n  baseUrl: ${server.url}\n  apiKey: wrong-key\nplugins:\n  llm-openai: { retry: { maxRetries: 0 } }\n`,
    );
    const { aalis, errors } = await start(dir, { banner: true });
    expect(aalis.model).toBeUndefined();
    expect(errors()).toContain(`The model endpoint ${server.url} offers no model`);
    expect(errors()).not.toContain('wrong-key');
  });
});
