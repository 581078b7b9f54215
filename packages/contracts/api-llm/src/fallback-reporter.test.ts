import { translate } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { createFallbackReporter } from './fallback-reporter.js';

describe('createFallbackReporter', () => {
  it('warns once per (preference, actual) pair, saying whether it was this plugin’s preference', () => {
    const warnings: string[] = [];
    const reporter = createFallbackReporter({ warn: (text) => warnings.push(translate(text, 'zh-CN')) });
    expect(reporter.report({ preference: 'local/qwen3', scope: 'plugin', actual: 'hosted/gpt' })).toBe(true);
    expect(reporter.report({ preference: 'local/qwen3', scope: 'plugin', actual: 'hosted/gpt' })).toBe(false);
    expect(reporter.report({ preference: 'local/qwen3', scope: 'plugin', actual: 'other/m' })).toBe(true);
    expect(reporter.report({ preference: 'x/y', scope: 'global', actual: 'other/m' })).toBe(true);
    expect(reporter.report(undefined)).toBe(false);
    expect(warnings).toEqual([
      '本插件偏好的模型 local/qwen3 现在不可用，改用 hosted/gpt。',
      '本插件偏好的模型 local/qwen3 现在不可用，改用 other/m。',
      '全局偏好的模型 x/y 现在不可用，改用 other/m。',
    ]);
  });
});
