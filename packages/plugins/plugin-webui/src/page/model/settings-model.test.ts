import type { ParamsOf, SettingView } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { SettingsModel, type SettingsRequests } from './settings-model.js';

function fields(model: string | undefined): SettingView[] {
  return [
    {
      key: 'llm',
      type: 'llm-ref',
      label: '模型',
      visibility: 'composer',
      level: 1,
      writable: true,
      value: model,
      source: model ? 'session' : 'unset',
      ...(model ? {} : { note: '跟随服务偏好（此刻：Test model）' }),
    },
    {
      key: 'think',
      type: 'select',
      label: '深度思考',
      visibility: 'common',
      level: 1,
      writable: true,
      value: undefined,
      source: 'unset',
      dynamicOptions: { dependsOn: ['llm'] },
    },
    {
      key: 'historyLimit',
      type: 'number',
      label: '历史条数上限',
      visibility: 'advanced',
      level: 'owner',
      writable: false,
      value: 0,
      source: 'default',
    },
  ];
}

/** A fake of the four settings requests that records what it was asked. */
function fakeRequests() {
  let model: string | undefined;
  const calls: string[] = [];
  const requests: SettingsRequests = {
    async get() {
      calls.push('get');
      return { settings: fields(model) };
    },
    async options({ values }) {
      const forModel = (values?.llm as string | undefined) ?? model ?? 'default';
      calls.push(`options:${forModel}`);
      return { options: forModel === 'p/deep' ? [{ value: 'high', label: '高' }] : [] };
    },
    async set({ key, value }) {
      calls.push(`set:${key}=${String(value)}`);
      if (key === 'historyLimit')
        throw Object.assign(new Error('Only an owner may change this.'), { code: 'AALIS_SETTINGS_FORBIDDEN' });
      model = value as string;
      return { setting: fields(model).find((field) => field.key === key)! };
    },
    async reset({ key }) {
      calls.push(`reset:${key}`);
      model = undefined;
      return { setting: fields(model).find((field) => field.key === key)! };
    },
  };
  return { requests, calls };
}

describe('SettingsModel', () => {
  it('groups the fields by visibility with value, source, note and writability', async () => {
    const { requests } = fakeRequests();
    const model = new SettingsModel('s', requests);
    await model.load();
    const snapshot = model.getSnapshot();
    expect(snapshot.composer.map((state) => state.setting.key)).toEqual(['llm']);
    expect(snapshot.common.map((state) => state.setting.key)).toEqual(['think']);
    expect(snapshot.advanced[0]!.setting).toMatchObject({ key: 'historyLimit', writable: false, source: 'default' });
    expect(snapshot.composer[0]!.setting.note).toBe('跟随服务偏好（此刻：Test model）');
  });

  it('refetches the dynamic options of 深度思考 with the model being picked, then reloads the notes', async () => {
    const { requests, calls } = fakeRequests();
    const model = new SettingsModel('s', requests);
    await model.load();
    expect(calls).toEqual(['get', 'options:default']);
    calls.length = 0;
    expect(await model.set('llm', 'p/deep')).toBe(true);
    expect(calls).toEqual(['options:p/deep', 'set:llm=p/deep', 'get', 'options:p/deep']);
    const snapshot = model.getSnapshot();
    expect(snapshot.common[0]!.options).toEqual([{ value: 'high', label: '高' }]);
    expect(snapshot.composer[0]!.setting).toMatchObject({ value: 'p/deep', source: 'session' });
    calls.length = 0;
    await model.reset('llm');
    expect(model.getSnapshot().common[0]!.options).toEqual([]);
    expect(calls).toEqual(['reset:llm', 'get', 'options:default']);
  });

  it('shows a refused write beside the field and keeps the old value', async () => {
    const { requests } = fakeRequests();
    const model = new SettingsModel('s', requests);
    await model.load();
    expect(await model.set('historyLimit', 5)).toBe(false);
    const state = model.getSnapshot().advanced[0]!;
    expect(state.error).toEqual({ code: 'AALIS_SETTINGS_FORBIDDEN', message: 'Only an owner may change this.' });
    expect(state.setting.value).toBe(0);
    expect(state.saving).toBe(false);
  });

  it('a late options answer for an older model does not overwrite a newer one', async () => {
    const answers: Array<(options: { value: string; label: string }[]) => void> = [];
    const { requests } = fakeRequests();
    const model = new SettingsModel('s', {
      ...requests,
      options: () => new Promise((resolve) => answers.push((options) => resolve({ options }))),
    });
    const loading = model.load();
    await new Promise((resolve) => setTimeout(resolve, 0));
    void model.set('llm', 'p/deep').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    answers[1]!([{ value: 'new', label: 'New' }]);
    answers[0]!([{ value: 'old', label: 'Old' }]);
    await loading;
    expect(model.getSnapshot().common[0]!.options).toEqual([{ value: 'new', label: 'New' }]);
  });
});

describe('SettingsModel write layers (IM rooms)', () => {
  it('sends writes and resets to the chosen layer, and only to one it was given', async () => {
    const calls: Record<string, unknown>[] = [];
    const setting = {
      key: 'historyLimit',
      label: '历史条数上限',
      type: 'number',
      visibility: 'advanced',
      level: 'owner',
      writable: true,
      value: 0,
      source: 'default',
    } as const;
    const model = new SettingsModel(
      'onebot:group:1',
      {
        get: async () => ({ settings: [setting] }),
        options: async () => ({ options: [] }),
        set: async (params: ParamsOf<'settings.set'>) => {
          calls.push({ kind: 'set', ...params });
          return { setting: { ...setting, value: params.value, source: params.layer ?? 'session' } };
        },
        reset: async (params: ParamsOf<'settings.reset'>) => {
          calls.push({ kind: 'reset', ...params });
          return { setting };
        },
      } as never,
      ['session', 'venue', 'platform'],
    );
    await model.load();
    expect(model.getSnapshot()).toMatchObject({ writeLayer: 'session', layers: ['session', 'venue', 'platform'] });
    await model.set('historyLimit', 30);
    model.setWriteLayer('platform');
    await model.set('historyLimit', 40);
    await model.reset('historyLimit');
    model.setWriteLayer('global' as never);
    expect(model.getSnapshot().writeLayer).toBe('platform');
    expect(calls).toEqual([
      { kind: 'set', sessionId: 'onebot:group:1', key: 'historyLimit', value: 30 },
      { kind: 'set', sessionId: 'onebot:group:1', key: 'historyLimit', value: 40, layer: 'platform' },
      { kind: 'reset', sessionId: 'onebot:group:1', key: 'historyLimit', layer: 'platform' },
    ]);
  });
});
