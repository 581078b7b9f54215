import { describe, expect, it } from 'vitest';
import { CONTINUITY_TEXTS } from './checkpoint-texts.js';
import { checkReadiness, resolveAgentConfig } from './config.js';
import { PlingError } from './errors.js';
import { createAgentRuntime } from './runtime.js';
import { scriptedLlm, toolCall } from './test-helpers.case.js';
import { type Locale, TEXTS, textsFor } from './texts.js';

/** Every leaf of a text table, by dotted key: strings, and functions called with sample arguments. */
function leaves(table: object, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(table)) {
    const path = prefix + key;
    if (typeof value === 'object' && value !== null) {
      for (const [inner, text] of leaves(value, `${path}.`)) found.set(inner, text);
    } else if (typeof value === 'function') {
      found.set(path, String((value as (...args: unknown[]) => unknown)('a', 1, 2, 3, 'b')));
    } else {
      found.set(path, value as string);
    }
  }
  return found;
}

const thrown = (run: () => unknown): PlingError => {
  try {
    run();
  } catch (error) {
    if (PlingError.isInstance(error)) return error;
  }
  throw new Error('expected a PlingError');
};

describe('text table (zh-CN and en)', () => {
  it('English counts read right at 1: no "1 turns", "1 tokens", "1 messages"', () => {
    const ones = (table: object) => {
      const found = new Map<string, string>();
      for (const [key, value] of Object.entries(table)) {
        if (typeof value === 'function') found.set(key, String((value as (...args: number[]) => unknown)(1, 1, 1, 1)));
      }
      return found;
    };
    for (const [key, text] of [...ones(TEXTS.en), ...ones(CONTINUITY_TEXTS.en)]) {
      expect(text, key).not.toMatch(/\b1 [a-z]+s\b/);
    }
    expect(TEXTS.en.budgetTokens(2, 5)).toBe('2 tokens used, limit 5');
  });

  it('every key has a non-empty text in both languages', () => {
    const zh = leaves(TEXTS['zh-CN']);
    const en = leaves(TEXTS.en);
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
    expect(zh.size).toBeGreaterThan(30);
    for (const [key, text] of [...zh, ...en]) expect(text.trim(), key).not.toBe('');
    expect(Object.keys(TEXTS).sort()).toEqual(['en', 'zh-CN']);
  });

  it('an unknown locale falls back to zh-CN', () => {
    expect(textsFor('fr')).toBe(TEXTS['zh-CN']);
    expect(textsFor(undefined)).toBe(TEXTS['zh-CN']);
  });

  it.each<[Locale, RegExp, RegExp]>([
    ['zh-CN', /agent 尚未配置.*\.env\.local/, /已销毁/],
    ['en', /not configured.*\.env\.local/, /disposed; create a new one/],
  ])('PlingError messages follow config.locale: %s', (locale, notConfigured, disposed) => {
    const readiness = checkReadiness(resolveAgentConfig({ config: { locale } }));
    expect(readiness.ready || readiness.error).toMatchObject({ code: 'NOT_CONFIGURED' });
    if (!readiness.ready) expect(readiness.error.message).toMatch(notConfigured);
    const runtime = createAgentRuntime({ config: { locale, model: 'm' }, llm: scriptedLlm([]) });
    runtime.dispose();
    const error = thrown(() => runtime.session());
    expect(error.code).toBe('DISPOSED');
    expect(error.message).toMatch(disposed);
  });

  it('INVALID_CONFIG is worded in the requested locale (zh-CN by default)', () => {
    expect(thrown(() => resolveAgentConfig({ config: { limits: { maxTurns: 0 } } })).message).toMatch(
      /agent 配置无效：limits\.maxTurns 必须是不小于 1 的整数/,
    );
    expect(thrown(() => resolveAgentConfig({ config: { locale: 'en', limits: { maxTurns: 0 } } })).message).toMatch(
      /Invalid agent config: limits\.maxTurns must be an integer at least 1/,
    );
  });

  it('a range in an INVALID_CONFIG message is spaced like the rest of the zh-CN text (是 0 到 2, not 是0 到 2)', () => {
    expect(thrown(() => resolveAgentConfig({ config: { temperature: 3 } })).message).toBe(
      'agent 配置无效：temperature 必须是 0 到 2 之间的数值（当前为 3）。',
    );
  });

  it('tool errors the model reads are in the configured locale', async () => {
    for (const [locale, expected] of [
      ['zh-CN', '没有名为 missing 的工具'],
      ['en', 'No tool named missing'],
    ] as const) {
      const llm = scriptedLlm([{ toolCalls: [toolCall('c1', 'missing')] }, { content: 'ok' }]);
      const runtime = createAgentRuntime({ config: { locale, model: 'm' }, llm });
      await runtime.session().send('go');
      const tool = llm.requests[1]!.messages.find((message) => message.role === 'tool')!;
      expect(JSON.parse(tool.content).error).toMatchObject({ code: 'TOOL_NOT_FOUND' });
      expect(tool.content).toContain(expected);
    }
  });
});
