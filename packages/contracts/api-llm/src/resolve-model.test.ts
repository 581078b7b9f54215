import { describe, expect, it } from 'vitest';
import { fakeProvider } from './fake-provider.case.js';
import { findModel, listModels, resolveModel } from './resolve-model.js';

const hosted = fakeProvider('hosted', ['gpt-big', 'gpt-small'], 10);
const local = fakeProvider('local', ['qwen3']);
const slashed = fakeProvider('@aalis/plugin-llm-openai', ['vendor/model-x']);
const empty = fakeProvider('empty', [], 100);
const providers = [local, hosted, slashed, empty];

describe('resolveModel', () => {
  it('follows request > plugin preference > global preference > priority > registration order', () => {
    const pick = (options: Parameters<typeof resolveModel>[0]) => resolveModel(options)?.model.id;
    expect(pick({ providers })).toBe('hosted/gpt-big');
    expect(pick({ providers, globalPreference: 'local/qwen3' })).toBe('local/qwen3');
    expect(pick({ providers, globalPreference: 'local/qwen3', pluginPreference: 'hosted/gpt-small' })).toBe(
      'hosted/gpt-small',
    );
    expect(pick({ providers, requested: 'local/qwen3', pluginPreference: 'hosted/gpt-small' })).toBe('local/qwen3');
    const tie = [fakeProvider('first', ['a']), fakeProvider('second', ['b'])];
    expect(pick({ providers: tie })).toBe('first/a');
  });

  it('takes a bare provider instance id as that provider’s first model', () => {
    expect(resolveModel({ providers, globalPreference: 'local' })?.model.id).toBe('local/qwen3');
  });

  it('matches model ids under instance ids that contain slashes', () => {
    const found = findModel({ providers, value: '@aalis/plugin-llm-openai/vendor/model-x' });
    expect(found?.provider.instanceId).toBe('@aalis/plugin-llm-openai');
    expect(found?.model.model).toBe('vendor/model-x');
  });

  it('falls back when a preferred model is missing and reports the first preference that missed', () => {
    expect(
      resolveModel({ providers, pluginPreference: 'local/gone', globalPreference: 'hosted/gpt-small' }),
    ).toMatchObject({
      model: { id: 'hosted/gpt-small' },
      fallback: { preference: 'local/gone', scope: 'plugin', actual: 'hosted/gpt-small' },
    });
    expect(resolveModel({ providers, globalPreference: 'nobody/x' })).toMatchObject({
      model: { id: 'hosted/gpt-big' },
      fallback: { preference: 'nobody/x', scope: 'global', actual: 'hosted/gpt-big' },
    });
    expect(resolveModel({ providers, requested: 'local/old' })?.fallback?.scope).toBe('request');
    expect(resolveModel({ providers, globalPreference: 'hosted/gpt-small' })?.fallback).toBeUndefined();
  });

  it('skips providers without models, and gives nothing when there is no model at all', () => {
    expect(resolveModel({ providers: [empty, local] })?.model.id).toBe('local/qwen3');
    expect(resolveModel({ providers: [empty] })).toBeUndefined();
    expect(resolveModel({ providers: [] })).toBeUndefined();
  });
});

describe('listModels', () => {
  it('lists every model in provider selection order', () => {
    expect(listModels({ providers }).map((model) => model.id)).toEqual([
      'hosted/gpt-big',
      'hosted/gpt-small',
      'local/qwen3',
      '@aalis/plugin-llm-openai/vendor/model-x',
    ]);
  });
});
