// One session setting as a labelled control, by field type: llm-ref → the models, select → its fixed or dynamic
// options, number / text / list → an input committed on change, boolean → a checkbox. Beside it: the source
// layer, the level it needs, the server's note (「跟随服务偏好(此刻:…)」, 「当前模型没有这一档…」, 「不限」), a reset
// when this session sets it, and a refused write's error. Used by the settings panel and beside the composer.
import type { ModelView, SettingOption } from '@aalis/session-client';
import { h, type VNode } from 'vue';
import type { SettingState } from '../model/settings-model.js';
import { t } from '../page-preferences.js';
import type { PageTextKey } from '../texts.js';
import { codedErrorNodes } from './coded-error.js';

export interface SettingActions {
  set(key: string, value: unknown): void;
  reset(key: string): void;
}

function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') {
    const { provider, model } = value as { provider?: unknown; model?: unknown };
    if (typeof provider === 'string' && typeof model === 'string') return `${provider}/${model}`;
    return JSON.stringify(value);
  }
  return String(value);
}

function choices(state: SettingState, models: readonly ModelView[]): SettingOption[] {
  const { setting } = state;
  const list: SettingOption[] =
    setting.type === 'llm-ref'
      ? models.map((model) => ({
          value: model.id,
          label: model.name === model.id ? model.id : `${model.name} (${model.id})`,
        }))
      : [...state.options];
  const current = valueText(setting.value);
  // A value the options do not offer (a thinking level the model lacks, a removed model) is still shown as is.
  if (current !== '' && !list.some((option) => option.value === current))
    list.unshift({ value: current, label: current });
  return list;
}

/**
 * What is typed into a text or number field and not yet committed, by input id. The panel re-renders whenever
 * something of the session changes (a turn's usage, another field saved, in a busy room every few seconds), and a
 * re-render writes each input's value again: without this, what a person is typing would be put back to the stored
 * value before they commit it. Kept from the first keystroke until the field is committed or left.
 */
const drafts = new Map<string, string>();

export function levelText(level: number | 'owner'): string {
  return level === 'owner' ? t('webui-page.settings.levelOwner') : t('webui-page.settings.level', { level });
}

function control(state: SettingState, models: readonly ModelView[], actions: SettingActions, id: string): VNode {
  const { setting } = state;
  const disabled = !setting.writable || state.saving;
  const common = { id, disabled, 'aria-describedby': `${id}-hint`, 'data-key': setting.key };
  switch (setting.type) {
    case 'llm-ref':
    case 'select': {
      const current = valueText(setting.value);
      const unsetLabel =
        setting.source === 'unset' ? (setting.note ?? t('webui-page.settings.unsetOption')) : undefined;
      return h(
        'select',
        {
          ...common,
          value: current,
          onChange: (event: Event) => {
            const value = (event.target as HTMLSelectElement).value;
            if (value === '') actions.reset(setting.key);
            else actions.set(setting.key, value);
          },
        },
        [
          current === '' ? h('option', { value: '' }, unsetLabel ?? t('webui-page.settings.unsetOption')) : null,
          ...choices(state, models).map((option) =>
            h('option', { key: option.value, value: option.value }, option.label),
          ),
        ],
      );
    }
    case 'boolean':
      return h('input', {
        ...common,
        type: 'checkbox',
        checked: setting.value === true,
        onChange: (event: Event) => actions.set(setting.key, (event.target as HTMLInputElement).checked),
      });
    case 'number':
    case 'string':
    case 'string[]': {
      const commit = (event: Event) => {
        const raw = (event.target as HTMLInputElement).value;
        drafts.delete(id);
        if (raw.trim() === '') return actions.reset(setting.key);
        if (setting.type === 'number') return actions.set(setting.key, Number(raw));
        if (setting.type === 'string[]')
          return actions.set(
            setting.key,
            raw
              .split(',')
              .map((part) => part.trim())
              .filter((part) => part !== ''),
          );
        return actions.set(setting.key, raw);
      };
      return h('input', {
        ...common,
        type: setting.type === 'number' ? 'number' : 'text',
        inputmode: setting.type === 'number' ? 'numeric' : undefined,
        value: drafts.get(id) ?? valueText(setting.value),
        onInput: (event: Event) => drafts.set(id, (event.target as HTMLInputElement).value),
        onBlur: () => drafts.delete(id),
        placeholder:
          setting.source === 'unset'
            ? (setting.note ?? '')
            : setting.type === 'string[]'
              ? t('webui-page.settings.listHint')
              : '',
        onChange: commit,
      });
    }
  }
}

const LAYER_TEXT: Record<SettingState['setting']['source'], PageTextKey> = {
  global: 'webui-page.layer.global',
  platformType: 'webui-page.layer.platformType',
  platform: 'webui-page.layer.platform',
  venue: 'webui-page.layer.venue',
  session: 'webui-page.layer.session',
  default: 'webui-page.layer.default',
  unset: 'webui-page.layer.unset',
};

export function layerText(source: SettingState['setting']['source']): string {
  return t(LAYER_TEXT[source]);
}

/** The full row of the settings panel. */
export function renderSettingRow(state: SettingState, models: readonly ModelView[], actions: SettingActions): VNode {
  const { setting } = state;
  const id = `setting-${setting.key}`;
  return h(
    'div',
    {
      key: setting.key,
      class: 'setting',
      'data-testid': 'setting',
      'data-key': setting.key,
      'data-source': setting.source,
    },
    [
      h('label', { for: id, class: 'setting-label' }, setting.label),
      h('div', { class: 'setting-control' }, [
        control(state, models, actions, id),
        setting.source === 'session' && setting.writable
          ? h(
              'button',
              {
                type: 'button',
                class: 'link',
                title: t('webui-page.settings.resetHint'),
                disabled: state.saving,
                onClick: () => actions.reset(setting.key),
              },
              t('webui-page.settings.reset'),
            )
          : null,
      ]),
      h('div', { id: `${id}-hint`, class: 'setting-hint' }, [
        h(
          'span',
          { class: 'badge', 'data-testid': 'setting-source' },
          t('webui-page.settings.source', { layer: layerText(setting.source) }),
        ),
        h('span', { class: 'badge' }, levelText(setting.level)),
        setting.writable ? null : h('span', { class: 'muted' }, t('webui-page.settings.readOnly')),
        // Written out even when the selected option reads the same: a select cuts long labels.
        setting.note ? h('span', { class: 'setting-note', 'data-testid': 'setting-note' }, setting.note) : null,
        setting.description ? h('span', { class: 'muted' }, setting.description) : null,
        state.saving ? h('span', { class: 'muted' }, t('webui-page.settings.saving')) : null,
      ]),
      state.error
        ? h('p', { class: 'setting-error', role: 'alert' }, codedErrorNodes(state.error.message, state.error.code))
        : null,
    ],
  );
}

/** The compact form beside the composer: label (visually hidden) and control only, the note as its title. */
export function renderComposerSetting(
  state: SettingState,
  models: readonly ModelView[],
  actions: SettingActions,
): VNode {
  const id = `composer-${state.setting.key}`;
  return h(
    'div',
    { key: state.setting.key, class: 'composer-setting', title: state.setting.note ?? state.setting.label },
    [
      h('label', { for: id, class: 'visually-hidden' }, state.setting.label),
      control(state, models, actions, id),
      h('span', { id: `${id}-hint`, class: 'visually-hidden' }, state.setting.note ?? ''),
    ],
  );
}
