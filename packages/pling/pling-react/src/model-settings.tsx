// The model settings panel for React: a thin renderer of @plingjs/core's ModelSettings (the model from the allowed
// list, temperature, max output, reset) with the same DOM as every other dock's panel. AgentDock shows it in its
// `settings` area when the settings are offered; it also works on its own:
// <ModelSettingsPanel settings={pling.modelSettings} />.
import type { ModelSettingField, ModelSettings } from '@plingjs/core';
import { type ReactNode, useEffect, useState } from 'react';
import { useObservable } from './use-observable.js';

export interface ModelSettingsPanelProps {
  /** The settings to show and change, e.g. `pling.modelSettings`. */
  settings: ModelSettings;
}

export function ModelSettingsPanel({ settings }: ModelSettingsPanelProps) {
  const state = useObservable(settings);
  const { texts, errors } = state;
  const field = (name: ModelSettingField, label: string, control: ReactNode, hint?: string) => (
    <>
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the control (a select or an input) is rendered inside the label. */}
      <label className="pling-setting" data-field={name}>
        <span>{label}</span>
        {control}
        {hint !== undefined && <span className="pling-muted">{hint}</span>}
      </label>
      {errors[name] && (
        <p data-pling="setting-error" data-field={name} role="alert">
          {errors[name].message}
        </p>
      )}
    </>
  );
  return (
    <details data-pling="model-settings">
      <summary>{texts.heading}</summary>
      {field(
        'model',
        texts.model,
        <select
          data-pling="model-select"
          aria-label={texts.model}
          aria-invalid={errors.model ? true : undefined}
          disabled={state.models.length < 2}
          value={state.model}
          onChange={(event) => settings.setModel(event.target.value)}
        >
          {state.models.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label + (choice.configured ? texts.defaultMark : '')}
            </option>
          ))}
        </select>,
      )}
      {field(
        'temperature',
        texts.temperature,
        <NumberSetting
          name="temperature"
          label={texts.temperature}
          shown={errors.temperature?.input ?? String(state.temperature)}
          invalid={errors.temperature !== undefined}
          attributes={{ min: 0, max: 2, step: 0.1, inputMode: 'decimal' }}
          onCommit={(text) => settings.setTemperature(text)}
        />,
        texts.temperatureHint,
      )}
      {field(
        'maxTokens',
        texts.maxTokens,
        <NumberSetting
          name="max-tokens"
          label={texts.maxTokens}
          shown={errors.maxTokens?.input ?? String(state.maxTokens)}
          invalid={errors.maxTokens !== undefined}
          attributes={{ min: 1, step: 1, inputMode: 'numeric' }}
          onCommit={(text) => settings.setMaxTokens(text)}
        />,
        texts.maxTokensHint,
      )}
      <button type="button" data-pling="reset-settings" onClick={() => settings.reset()}>
        {texts.reset}
      </button>
    </details>
  );
}

interface NumberSettingProps {
  name: string;
  label: string;
  /** What the field shows when the person is not editing it: the value in effect, or a refused input. */
  shown: string;
  invalid: boolean;
  attributes: { min: number; max?: number; step: number; inputMode: 'decimal' | 'numeric' };
  onCommit(text: string): void;
}

/**
 * A number field that applies on commit (Enter or leaving it), as the DOM `change` event does in the other docks:
 * React's onChange fires on every keystroke, which would refuse "0." on the way to "0.5".
 */
function NumberSetting({ name, label, shown, invalid, attributes, onCommit }: NumberSettingProps) {
  const [draft, setDraft] = useState(shown);
  useEffect(() => setDraft(shown), [shown]);
  const commit = () => {
    if (draft !== shown) onCommit(draft);
  };
  return (
    <input
      data-pling={name}
      type="number"
      {...attributes}
      aria-label={label}
      aria-invalid={invalid ? true : undefined}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
    />
  );
}
