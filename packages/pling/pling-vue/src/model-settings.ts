// The model settings panel for Vue 3 (the spec's "模型设置：packages/vue/src/model-settings.ts"): a thin renderer of
// @plingjs/core's ModelSettings — the model from the allowed list, temperature, max output, reset — with the same
// DOM as every other dock's panel. AgentDock puts it in its `settings` slot when the settings are offered; it can
// also be used on its own: <ModelSettingsPanel :settings="pling.modelSettings" />.
import type { ModelSettingField, ModelSettings, ModelSettingsState } from '@plingjs/core';
import { defineComponent, h, type PropType, type VNode } from 'vue';
import { useObservable } from './use-observable.js';

export interface ModelSettingsHandlers {
  model(id: string): void;
  temperature(text: string): void;
  maxTokens(text: string): void;
  reset(): void;
}

export const ModelSettingsPanel = defineComponent({
  name: 'ModelSettingsPanel',
  props: {
    /** The settings to show and change, e.g. `pling.modelSettings`. */
    settings: { type: Object as PropType<ModelSettings>, required: true },
  },
  setup(props) {
    const state = useObservable(props.settings);
    const on: ModelSettingsHandlers = {
      model: (id) => void props.settings.setModel(id),
      temperature: (text) => void props.settings.setTemperature(text),
      maxTokens: (text) => void props.settings.setMaxTokens(text),
      reset: () => props.settings.reset(),
    };
    return () => renderModelSettings(state.value, on);
  },
});

/** The panel's markup for one state: `details[data-pling="model-settings"]`, the DOM every dock's panel has. */
export function renderModelSettings(state: ModelSettingsState, on: ModelSettingsHandlers): VNode {
  const { texts, errors } = state;
  const value = (event: Event) => (event.target as HTMLInputElement | HTMLSelectElement).value;
  const field = (name: ModelSettingField, label: string, control: VNode, hint?: string) => [
    h('label', { class: 'pling-setting', 'data-field': name }, [
      h('span', label),
      control,
      hint === undefined ? null : h('span', { class: 'pling-muted' }, hint),
    ]),
    errors[name]
      ? h('p', { 'data-pling': 'setting-error', 'data-field': name, role: 'alert' }, errors[name].message)
      : null,
  ];
  const select = h(
    'select',
    {
      'data-pling': 'model-select',
      'aria-label': texts.model,
      'aria-invalid': errors.model ? 'true' : undefined,
      disabled: state.models.length < 2,
      value: state.model,
      onChange: (event: Event) => on.model(value(event)),
    },
    state.models.map((choice) =>
      h('option', { key: choice.id, value: choice.id }, choice.label + (choice.configured ? texts.defaultMark : '')),
    ),
  );
  const numberInput = (name: 'temperature' | 'maxTokens', attributes: Record<string, string>) =>
    h('input', {
      'data-pling': name === 'temperature' ? 'temperature' : 'max-tokens',
      type: 'number',
      ...attributes,
      'aria-label': name === 'temperature' ? texts.temperature : texts.maxTokens,
      'aria-invalid': errors[name] ? 'true' : undefined,
      // A refused value stays in its field, with the reason below it.
      value: errors[name]?.input ?? String(state[name]),
      onChange: (event: Event) => on[name](value(event)),
    });
  return h('details', { 'data-pling': 'model-settings' }, [
    h('summary', texts.heading),
    ...field('model', texts.model, select),
    ...field(
      'temperature',
      texts.temperature,
      numberInput('temperature', { min: '0', max: '2', step: '0.1', inputmode: 'decimal' }),
      texts.temperatureHint,
    ),
    ...field(
      'maxTokens',
      texts.maxTokens,
      numberInput('maxTokens', { min: '1', step: '1', inputmode: 'numeric' }),
      texts.maxTokensHint,
    ),
    h('button', { type: 'button', 'data-pling': 'reset-settings', onClick: on.reset }, texts.reset),
  ]);
}
