import { AalisError, translate } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { purposeLabel } from './llm-catalogue.js';
import { isLlmError, llmErrors } from './llm-errors.js';

describe('llmErrors', () => {
  it('has a zh-CN and an en text for every code, and says which ones are worth retrying', () => {
    const retryable = Object.entries(llmErrors)
      .filter(([, factory]) => factory().isRetryable)
      .map(([code]) => code);
    expect(retryable.sort()).toEqual([
      'AALIS_LLM_NETWORK',
      'AALIS_LLM_RATE_LIMITED',
      'AALIS_LLM_SERVER',
      'AALIS_LLM_TIMEOUT',
    ]);
    for (const factory of Object.values(llmErrors)) {
      const error = factory({ provider: 'p' });
      expect(error.localized('zh-CN')).not.toBe(`error.${factory.code}`);
      expect(error.localized('en')).not.toBe(error.localized('zh-CN'));
    }
  });

  it('carries the provider message and is recognised across copies', () => {
    const error = llmErrors.AALIS_LLM_SERVER({ provider: 'p', model: 'p/m', status: 503, providerMessage: 'busy' });
    expect(error.message).toBe(
      'p failed to answer for p/m (HTTP 503): busy. This is a problem on the server side; try again later.',
    );
    expect(error.details.providerMessage).toBe('busy');
    expect(isLlmError(error)).toBe(true);
    expect(isLlmError(new AalisError('AALIS_OTHER', { key: 'x' }))).toBe(false);
    expect(llmErrors.AALIS_LLM_SERVER.is(error)).toBe(true);
  });

  it('labels purposes as 「对话」 and 「子任务」', () => {
    expect(translate(purposeLabel('conversation'), 'zh-CN')).toBe('对话');
    expect(translate(purposeLabel('subtask'), 'zh-CN')).toBe('子任务');
    expect(translate(purposeLabel('subtask'), 'en')).toBe('subtask');
  });
});
