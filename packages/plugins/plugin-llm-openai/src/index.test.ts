// The plugin: instances side by side, model lists from config and from GET /models, preferences, config errors.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFallbackReporter, llm, resolveModelFor } from '@aalis/api-llm';
import { translate } from '@aalis/core';
import { bootApp, errorReply, type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, baseRequest, userMessage } from './fixture.case.js';
import plugin from './index.js';

let hosted: OpenAiTestServer;
let local: OpenAiTestServer;

beforeAll(async () => {
  hosted = await startOpenAiTestServer({ apiKey: API_KEY, models: ['gpt-big', 'gpt-small'] });
  local = await startOpenAiTestServer({ models: ['qwen3', 'llama3'] });
});
afterAll(async () => {
  await hosted.close();
  await local.close();
});

const hostedConfig = () => ({
  baseUrl: hosted.url,
  apiKey: API_KEY,
  priority: 10,
  fetchModels: true,
  models: [
    {
      id: 'gpt-small',
      name: 'GPT Small',
      contextWindow: 16_000,
      maxOutputTokens: 2_000,
      capabilities: { vision: true },
      thinking: {
        levels: [
          { id: 'low', name: 'Low' },
          { id: 'high', name: 'High' },
        ],
        default: 'low',
      },
    },
  ],
});

describe('plugin', () => {
  it('runs several instances side by side, each with its own models and server', async () => {
    const { app, stop } = await bootApp({
      plugins: [
        [plugin, hostedConfig(), { id: 'hosted' }],
        [plugin, { baseUrl: local.url, priority: 0 }, { id: 'local' }],
      ],
    });
    try {
      const providers = app.services.providers(llm);
      expect(providers.map((provider) => [provider.instanceId, provider.priority])).toEqual([
        ['hosted', 10],
        ['local', 0],
      ]);
      const hostedModels = providers[0]!.impl.models();
      expect(hostedModels.map((model) => model.id)).toEqual(['hosted/gpt-small', 'hosted/gpt-big']);
      expect(hostedModels[0]).toEqual({
        id: 'hosted/gpt-small',
        provider: 'hosted',
        model: 'gpt-small',
        name: 'GPT Small',
        contextWindow: 16_000,
        maxOutputTokens: 2_000,
        capabilities: { tools: true, vision: true },
        thinking: {
          levels: [
            { id: 'low', name: 'Low' },
            { id: 'high', name: 'High' },
          ],
          default: 'low',
        },
      });
      expect(hostedModels[1]).toMatchObject({
        name: 'gpt-big',
        contextWindow: 128_000,
        maxOutputTokens: 8_192,
        capabilities: { tools: true, vision: false },
        thinking: 'not-adjustable',
      });
      expect(providers[1]!.impl.models().map((model) => model.id)).toEqual(['local/qwen3', 'local/llama3']);

      local.enqueue(textReply('from local'));
      hosted.enqueue(textReply('from hosted'));
      const localAnswer = await providers[1]!.impl.chat({
        ...baseRequest,
        model: 'local/qwen3',
        messages: userMessage('a'),
      });
      const hostedAnswer = await providers[0]!.impl.chat({
        ...baseRequest,
        model: 'hosted/gpt-big',
        messages: userMessage('b'),
      });
      expect([localAnswer.content, hostedAnswer.content]).toEqual(['from local', 'from hosted']);
      expect(local.chatBodies().at(-1)!.model).toBe('qwen3');
      expect(local.requests.at(-1)!.headers.authorization).toBeUndefined();
      expect(hosted.chatBodies().at(-1)!.model).toBe('gpt-big');
    } finally {
      await stop();
    }
  });

  it('resolves a preference like local/qwen3 to that instance, and falls back (reported once) when it is gone', async () => {
    const { app, stop } = await bootApp({
      plugins: [
        [plugin, hostedConfig(), { id: 'hosted' }],
        [plugin, { baseUrl: local.url }, { id: 'local' }],
      ],
      preferences: { global: { llm: 'local/qwen3' } },
    });
    try {
      expect(app.services.selected(llm)?.instanceId).toBe('local');
      expect(resolveModelFor({ services: app.services })?.model.id).toBe('local/qwen3');
      app.services.setPluginPreference('some-consumer', 'llm', 'local/llama3');
      expect(resolveModelFor({ services: app.services, consumer: 'some-consumer' })?.model.id).toBe('local/llama3');

      app.services.setGlobalPreference('llm', 'local/retired');
      const warnings: string[] = [];
      const reporter = createFallbackReporter({ warn: (text) => warnings.push(translate(text, 'en')) });
      for (let turn = 0; turn < 3; turn++) {
        const resolved = resolveModelFor({ services: app.services });
        expect(resolved?.model.id).toBe('hosted/gpt-small');
        reporter.report(resolved?.fallback);
      }
      expect(warnings).toEqual([
        'The globally preferred model local/retired is not available now; using hosted/gpt-small instead.',
      ]);
    } finally {
      await stop();
    }
  });

  it('keeps the configured models and warns when GET /models fails at start', async () => {
    hosted.failModels(errorReply(500, 'models are down'));
    const { app, logs, stop } = await bootApp({
      plugins: [[plugin, { ...hostedConfig(), retry: { maxRetries: 0 } }, { id: 'hosted' }]],
    });
    try {
      expect(
        app.services
          .providers(llm)[0]!
          .impl.models()
          .map((model) => model.id),
      ).toEqual(['hosted/gpt-small']);
      const warning = logs.find((record) => record.level === 'warn');
      expect(warning?.message).toContain('could not list the server models');
      expect(String(warning?.fields?.error)).toContain('models are down');
      hosted.failModels(undefined);
      const refreshed = await app.services.providers(llm)[0]!.impl.refreshModels!();
      expect(refreshed.map((model) => model.id)).toEqual(['hosted/gpt-small', 'hosted/gpt-big']);
    } finally {
      await stop();
    }
  });

  it('lists only configured models when fetchModels is off', async () => {
    const requestsBefore = hosted.requests.length;
    const { app, stop } = await bootApp({
      plugins: [[plugin, { ...hostedConfig(), fetchModels: false }, { id: 'hosted' }]],
    });
    try {
      expect(
        app.services
          .providers(llm)[0]!
          .impl.models()
          .map((model) => model.id),
      ).toEqual(['hosted/gpt-small']);
      expect(hosted.requests.length).toBe(requestsBefore);
    } finally {
      await stop();
    }
  });

  it('refuses a config whose thinking default is not one of its levels, naming the field', async () => {
    const { app, stop } = await bootApp({
      plugins: [
        [
          plugin,
          {
            baseUrl: local.url,
            fetchModels: false,
            models: [{ id: 'm', thinking: { levels: [{ id: 'low', name: 'Low' }], default: 'max' } }],
          },
          { id: 'broken' },
        ],
      ],
    });
    try {
      const state = app.stateOf('broken');
      expect(state.state).toBe('error');
      expect(state.error?.code).toBe('AALIS_CONFIG_INVALID');
      expect(state.error?.message).toContain('models.0.thinking.default');
    } finally {
      await stop();
    }
  });

  it('refuses a caFile it cannot read at activation, with a coded error, before any request', async () => {
    const requestsBefore = local.requests.length;
    const caFile = join(tmpdir(), 'aalis-no-such-ca.pem');
    const { app, stop } = await bootApp({
      plugins: [[plugin, { baseUrl: local.url, fetchModels: true, caFile }, { id: 'private-ca' }]],
    });
    try {
      const state = app.stateOf('private-ca');
      expect(state.state).toBe('error');
      expect(state.error?.code).toBe('AALIS_LLM_OPENAI_CA_FILE_UNREADABLE');
      expect(state.error?.message).toContain(caFile);
      expect(state.error?.localized('zh-CN')).toContain('无法读取 caFile');
      expect(app.services.providers(llm)).toEqual([]);
      expect(local.requests.length).toBe(requestsBefore);
    } finally {
      await stop();
    }
  });

  it('refuses a proxy that is not http:// at activation', async () => {
    const { app, stop } = await bootApp({
      plugins: [[plugin, { baseUrl: local.url, proxy: 'socks5://user:pw@127.0.0.1:1080' }, { id: 'socks' }]],
    });
    try {
      const state = app.stateOf('socks');
      expect(state.error?.code).toBe('AALIS_LLM_OPENAI_PROXY_UNSUPPORTED');
      expect(state.error?.message).toContain('proxy = socks5://***@127.0.0.1:1080');
    } finally {
      await stop();
    }
  });

  it('refuses a config without a baseUrl', async () => {
    const { app, stop } = await bootApp({ plugins: [[plugin, {}, { id: 'nothing' }]] });
    try {
      expect(app.stateOf('nothing').error?.message).toContain('baseUrl');
    } finally {
      await stop();
    }
  });

  it('refuses a baseUrl that is not an http(s) URL with a usable port, never showing its credentials', async () => {
    const values = ['not a url', 'ftp://models.example.com/v1', 'http://127.0.0.1:99999/v1', 'https://u:s3cr3t@h:0/v1'];
    const { app, stop } = await bootApp({
      locale: 'en',
      plugins: values.map((baseUrl, index) => [plugin, { baseUrl, fetchModels: false }, { id: `bad-${index}` }]),
    });
    try {
      values.forEach((value, index) => {
        const state = app.stateOf(`bad-${index}`);
        expect(state.state, value).toBe('error');
        expect(state.error?.code, value).toBe('AALIS_CONFIG_INVALID');
        expect(state.error?.message, value).toContain('"baseUrl" expected an http:// or https:// URL');
        expect(JSON.stringify([state.error?.message, state.error?.details]), value).not.toContain('s3cr3t');
      });
      expect(app.services.providers(llm)).toEqual([]);
    } finally {
      await stop();
    }
  });
});
