// The model settings panel of the native dock: the DOM for @plingjs/core's ModelSettings (model from the allowed
// list, temperature, max output, reset), mounted into the dock's `settings` slot. A value applies on `change`
// (Enter or leaving the field); a refused one stays in its field with the runtime's reason under it.
import type { ModelSettingField, ModelSettings, ModelSettingsState } from '@plingjs/core';
import { createElement, setAttribute, setText } from './create-element.js';

export interface ModelSettingsView {
  readonly root: HTMLElement;
  render(state: ModelSettingsState): void;
}

export function createModelSettingsView(document: Document, settings: ModelSettings): ModelSettingsView {
  const text = () => document.createTextNode('');
  const headingText = text();
  const select = createElement(document, 'select', { 'data-pling': 'model-select' });
  const temperature = createElement(document, 'input', {
    'data-pling': 'temperature',
    type: 'number',
    min: '0',
    max: '2',
    step: '0.1',
    inputmode: 'decimal',
  });
  const maxTokens = createElement(document, 'input', {
    'data-pling': 'max-tokens',
    type: 'number',
    min: '1',
    step: '1',
    inputmode: 'numeric',
  });
  const resetLabel = text();
  const reset = createElement(document, 'button', { type: 'button', 'data-pling': 'reset-settings' }, [resetLabel]);
  const field = (name: ModelSettingField, control: HTMLElement) => {
    const label = text();
    const hint = text();
    const error = text();
    const errorLine = createElement(
      document,
      'p',
      { 'data-pling': 'setting-error', 'data-field': name, role: 'alert' },
      [error],
    );
    const hintLine = createElement(document, 'span', { class: 'pling-muted' }, [hint]);
    const element = createElement(document, 'label', { class: 'pling-setting', 'data-field': name }, [
      createElement(document, 'span', {}, [label]),
      control,
      hintLine,
    ]);
    return { element, errorLine, label, hint, error };
  };
  const fields = {
    model: field('model', select),
    temperature: field('temperature', temperature),
    maxTokens: field('maxTokens', maxTokens),
  };
  const root = createElement(document, 'details', { 'data-pling': 'model-settings' }, [
    createElement(document, 'summary', {}, [headingText]),
  ]);

  select.addEventListener('change', () => settings.setModel(select.value));
  temperature.addEventListener('change', () => settings.setTemperature(temperature.value));
  maxTokens.addEventListener('change', () => settings.setMaxTokens(maxTokens.value));
  reset.addEventListener('click', () => settings.reset());

  const render = (state: ModelSettingsState) => {
    const { texts } = state;
    setText(headingText, texts.heading);
    setText(fields.model.label, texts.model);
    setText(fields.temperature.label, texts.temperature);
    setText(fields.temperature.hint, texts.temperatureHint);
    setText(fields.maxTokens.label, texts.maxTokens);
    setText(fields.maxTokens.hint, texts.maxTokensHint);
    setText(resetLabel, texts.reset);
    setAttribute(select, 'aria-label', texts.model);
    setAttribute(temperature, 'aria-label', texts.temperature);
    setAttribute(maxTokens, 'aria-label', texts.maxTokens);

    const options = state.models.map((choice) => {
      const option = createElement(document, 'option', { value: choice.id }, [
        choice.label + (choice.configured ? texts.defaultMark : ''),
      ]);
      return option;
    });
    const current = [...select.options].map((option) => `${option.value}\n${option.text}`).join('\n');
    if (current !== options.map((option) => `${option.value}\n${option.text}`).join('\n'))
      select.replaceChildren(...options);
    const single = state.models.length < 2;
    if (select.disabled !== single) select.disabled = single; // writing the same value still mutates the DOM
    if (select.value !== state.model) select.value = state.model;
    // A refused value stays in its field (with the reason below it); otherwise the field shows what is in effect.
    showValue(temperature, state.errors.temperature?.input ?? String(state.temperature), document);
    showValue(maxTokens, state.errors.maxTokens?.input ?? String(state.maxTokens), document);

    const children: Node[] = [root.firstChild!];
    for (const name of ['model', 'temperature', 'maxTokens'] as const) {
      const { element, errorLine, error } = fields[name];
      const problem = state.errors[name];
      children.push(element);
      setAttribute(
        name === 'model' ? select : name === 'temperature' ? temperature : maxTokens,
        'aria-invalid',
        problem ? 'true' : undefined,
      );
      if (problem) {
        setText(error, problem.message);
        children.push(errorLine);
      }
    }
    children.push(reset);
    if (
      children.length !== root.childNodes.length ||
      children.some((child, index) => root.childNodes[index] !== child)
    ) {
      root.replaceChildren(...children);
    }
  };
  render(settings.getSnapshot());
  return { root, render };
}

/** Mounts the panel into `slot` and keeps it in step with `settings`; returns the unmount. */
export function mountModelSettings(slot: HTMLElement, settings: ModelSettings): () => void {
  const view = createModelSettingsView(slot.ownerDocument, settings);
  slot.append(view.root);
  const unsubscribe = settings.subscribe(() => view.render(settings.getSnapshot()));
  return () => {
    unsubscribe();
    view.root.remove();
  };
}

/** Writes an input's value unless the person is typing in it. */
function showValue(input: HTMLInputElement, value: string, document: Document): void {
  if (document.activeElement === input && input.value !== '') return;
  if (input.value !== value) input.value = value;
}
