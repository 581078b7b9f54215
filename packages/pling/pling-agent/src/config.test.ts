import { describe, expect, it } from 'vitest';
import { checkReadiness, DEFAULT_AGENT_CONFIG, isAbsoluteUrl, mergeAgentConfig, resolveAgentConfig } from './config.js';
import { PlingError } from './errors.js';

function invalidCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return PlingError.isInstance(error) ? error.code : 'not a PlingError';
  }
  return undefined;
}

describe('配置与优先级', () => {
  it('字段默认值表: every default matches the table', () => {
    expect(DEFAULT_AGENT_CONFIG).toEqual({
      baseUrl: '',
      model: '',
      apiKey: '',
      temperature: 0.3,
      maxTokens: 1024,
      systemPrompt: '',
      stream: true,
      defaultApproval: 'danger',
      minActionIntervalMs: 0,
      retry: { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 4000 },
      limits: { maxTurns: 10, contextTokens: 8192, reserveForOutput: 1024, compactRatio: 0.8, keepRecent: 6 },
    });
    const resolved = resolveAgentConfig();
    expect(resolved).toMatchObject(DEFAULT_AGENT_CONFIG);
    expect(resolved.continuity).toBe(false);
    expect(resolved.trace).toBeUndefined();
  });

  it('框架默认值 < 环境变量: VITE_AGENT_* override the defaults', () => {
    const resolved = resolveAgentConfig({
      env: {
        VITE_AGENT_BASE_URL: 'https://llm.example/v1',
        VITE_AGENT_MODEL: 'm1',
        VITE_AGENT_API_KEY: 'k1',
        VITE_AGENT_TEMPERATURE: '0.7',
        VITE_AGENT_MAX_TOKENS: '2048',
        VITE_AGENT_STREAM: 'false',
        DEV: true,
      },
    });
    expect(resolved).toMatchObject({
      baseUrl: 'https://llm.example/v1',
      model: 'm1',
      apiKey: 'k1',
      temperature: 0.7,
      maxTokens: 2048,
      stream: false,
    });
  });

  it('显式值按字段覆盖环境变量: explicit values override env field by field', () => {
    const resolved = resolveAgentConfig({
      env: { VITE_AGENT_BASE_URL: '/api/llm', VITE_AGENT_MODEL: 'env-model' },
      config: { model: 'explicit-model', apiKey: undefined },
    });
    expect(resolved.baseUrl).toBe('/api/llm');
    expect(resolved.model).toBe('explicit-model');
    expect(resolved.apiKey).toBe('');
  });

  it('limits 与 retry 会逐项合并: an incomplete object never replaces the whole group', () => {
    const resolved = resolveAgentConfig({
      config: { limits: { maxTurns: 100, contextTokens: 16_384, keepRecent: 8 }, retry: { maxRetries: 2 } },
    });
    expect(resolved.limits).toEqual({
      maxTurns: 100,
      contextTokens: 16_384,
      reserveForOutput: 1024,
      compactRatio: 0.8,
      keepRecent: 8,
    });
    expect(resolved.retry).toEqual({ maxRetries: 2, baseDelayMs: 500, maxDelayMs: 4000 });
  });

  it('retry.maxRetries 范围 0 至 5: values outside are rejected with INVALID_CONFIG', () => {
    expect(invalidCode(() => resolveAgentConfig({ config: { retry: { maxRetries: 0 } } }))).toBeUndefined();
    expect(invalidCode(() => resolveAgentConfig({ config: { retry: { maxRetries: 5 } } }))).toBeUndefined();
    expect(invalidCode(() => resolveAgentConfig({ config: { retry: { maxRetries: 6 } } }))).toBe('INVALID_CONFIG');
    expect(invalidCode(() => resolveAgentConfig({ config: { retry: { maxRetries: -1 } } }))).toBe('INVALID_CONFIG');
    expect(invalidCode(() => resolveAgentConfig({ config: { retry: { maxRetries: 1.5 } } }))).toBe('INVALID_CONFIG');
  });

  it('out-of-range limits and unknown fields are rejected with a message naming the field', () => {
    const cases = [
      { limits: { maxTurns: 0 } },
      { limits: { contextTokens: 1000, reserveForOutput: 1000 } },
      { limits: { compactRatio: 0 } },
      { limits: { compactRatio: 1.5 } },
      { limits: { keepRecent: -1 } },
      { retry: { baseDelayMs: 500, maxDelayMs: 100 } },
      { temperature: 3 },
    ];
    for (const config of cases) {
      expect(invalidCode(() => resolveAgentConfig({ config }))).toBe('INVALID_CONFIG');
    }
    expect(() => resolveAgentConfig({ config: { limits: { maxTurn: 3 } } as never })).toThrow(/limits\.maxTurn/);
    expect(() => resolveAgentConfig({ env: { VITE_AGENT_TEMPERATURE: 'warm' } })).toThrow(/VITE_AGENT_TEMPERATURE/);
  });
});

describe('常见失败: NOT_CONFIGURED', () => {
  const ready = (config: Parameters<typeof resolveAgentConfig>[0], injectedLlm = false) =>
    checkReadiness(resolveAgentConfig(config), { injectedLlm });

  it('缺少 baseUrl、model 时未就绪', () => {
    const missingBoth = ready({});
    expect(missingBoth.ready).toBe(false);
    if (!missingBoth.ready) {
      expect(missingBoth.error.code).toBe('NOT_CONFIGURED');
      expect(missingBoth.error.message).toMatch(/baseUrl.*model.*\.env\.local/);
    }
    expect(ready({ config: { baseUrl: '/api/llm' } }).ready).toBe(false);
  });

  it('直连接口缺少 apiKey 时未就绪; 相对路径走同源代理不需要 apiKey', () => {
    expect(ready({ config: { baseUrl: 'https://api.example/v1', model: 'm' } }).ready).toBe(false);
    expect(ready({ config: { baseUrl: 'https://api.example/v1', model: 'm', apiKey: 'k' } }).ready).toBe(true);
    expect(ready({ config: { baseUrl: '/api/llm', model: 'm' } }).ready).toBe(true);
    expect(isAbsoluteUrl('//api.example/v1')).toBe(true);
    expect(isAbsoluteUrl('api/llm')).toBe(false);
  });

  it('注入 llm 后不需要 baseUrl 与 apiKey 才能就绪, 但仍检查限额与重试参数', () => {
    expect(ready({ config: { model: 'm' } }, true).ready).toBe(true);
    expect(invalidCode(() => ready({ config: { model: 'm', retry: { maxRetries: 9 } } }, true))).toBe('INVALID_CONFIG');
  });
});

describe('mergeAgentConfig', () => {
  it('the second config wins field by field; undefined does not override; limits and retry merge item by item', () => {
    expect(
      mergeAgentConfig(
        { model: 'a', temperature: 0.5, limits: { maxTurns: 100, keepRecent: 8 }, retry: { maxRetries: 2 } },
        { model: 'b', temperature: undefined, limits: { keepRecent: 4 } },
      ),
    ).toEqual({ model: 'b', temperature: 0.5, limits: { maxTurns: 100, keepRecent: 4 }, retry: { maxRetries: 2 } });
    expect(mergeAgentConfig(undefined, { retry: { baseDelayMs: 1 } })).toEqual({ retry: { baseDelayMs: 1 } });
    expect(mergeAgentConfig({ model: 'a' })).toEqual({ model: 'a' });
  });
});
