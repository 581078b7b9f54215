import { describe, expect, it } from 'vitest';
import { fakeModel } from './fake-provider.case.js';
import { effectiveThinkingLevel, modelRef } from './model-info.js';

describe('modelRef', () => {
  it('joins the provider instance id and the model id', () => {
    expect(modelRef({ provider: 'local', model: 'qwen3' })).toBe('local/qwen3');
  });
});

describe('effectiveThinkingLevel', () => {
  const model = fakeModel('p', 'm');
  it('keeps a level the model declares and drops any other', () => {
    expect(effectiveThinkingLevel({ model, requested: 'high' })).toBe('high');
    expect(effectiveThinkingLevel({ model, requested: 'max' })).toBeUndefined();
    expect(effectiveThinkingLevel({ model, requested: undefined })).toBeUndefined();
    expect(effectiveThinkingLevel({ model: { thinking: 'not-adjustable' }, requested: 'high' })).toBeUndefined();
  });
});
