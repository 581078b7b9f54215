// The admin area's 模型/Models section: a form per provider (an OpenAI-compatible base URL, key and headers; an
// Anthropic key) with 测试连接/Test connection and 保存/Save (applied live), each provider's models with their facts
// (edit: name, context window, max output, vision, thinking levels, prices), and the default model.
import type { ProviderKind, ProviderView } from '@aalis/session-client';
import { defineComponent, h, type PropType, reactive, ref } from 'vue';
import { tm } from '../console-models-texts.js';
import {
  type FactsForm,
  factsForm,
  factsOf,
  headersText,
  ModelsModel,
  type ProviderForm,
} from '../model/models-model.js';
import type { TextKey } from '../page-translator.js';
import { useConsoleModel } from '../use-console-model.js';
import { stateText } from './state-text.js';
import '../console-models.css';
import { errorAlert } from './coded-error.js';
import { consoleProps } from './console-props.js';
import { deleteButton } from './delete-button.js';
import { tableHead } from './table-head.js';

const KINDS: ProviderKind[] = ['openai', 'anthropic'];

export const ModelsView = defineComponent({
  name: 'ModelsView',
  props: {
    ...consoleProps,
    /** Called after a change that adds or removes models (the page's model lists follow). */
    onChanged: { type: Function as PropType<() => void>, default: undefined },
  },
  setup(props) {
    const { model, snapshot } = useConsoleModel(props, ModelsModel, () => fill());
    const forms = reactive<Record<ProviderKind, ProviderForm>>({
      openai: { baseUrl: '', apiKey: '', headers: '' },
      anthropic: { baseUrl: '', apiKey: '', headers: '' },
    });
    const editing = ref<{ kind: ProviderKind; model: string; form: FactsForm } | undefined>();
    const fill = () => {
      for (const provider of snapshot.value.providers) {
        forms[provider.kind].baseUrl = provider.baseUrl ?? '';
        forms[provider.kind].apiKey = '';
        forms[provider.kind].headers = headersText(provider.headers);
      }
    };
    const changed = async (done: Promise<boolean>) => {
      if (!(await done)) return;
      fill();
      props.onChanged?.();
    };

    const field = (id: string, label: string, control: ReturnType<typeof h>, hint?: string) =>
      h('div', { class: 'setting' }, [
        h('label', { for: id, class: 'setting-label' }, label),
        h('div', { class: 'setting-control' }, [control, hint ? h('p', { class: 'setting-hint' }, hint) : null]),
      ]);

    const testResult = (kind: ProviderKind) => {
      const test = snapshot.value.test;
      if (!test || test.kind !== kind) return null;
      if (test.running) return h('p', { class: 'muted', role: 'status' }, tm('console-models.testing'));
      const result = test.result;
      if (!result) return null;
      if (result.ok) {
        return h(
          'p',
          { class: 'console-ok', role: 'status', 'data-testid': `test-result-${kind}` },
          tm('console-models.test.ok', {
            count: result.models.length,
            model: result.model ?? '',
            reply: result.reply ?? '',
            ms: result.ms,
          }),
        );
      }
      const problem = result.problem!;
      return h('div', { class: 'setting-error', role: 'alert', 'data-testid': `test-result-${kind}` }, [
        h('p', [
          tm('console-models.test.failed', { step: tm(`console-models.step.${problem.step}` as TextKey<typeof tm>) }),
          ' ',
          h('code', problem.code),
        ]),
        h('p', problem.message),
        problem.cause ? h('p', { class: 'muted' }, problem.cause) : null,
      ]);
    };

    const providerForm = (provider: ProviderView) => {
      const kind = provider.kind;
      const form = forms[kind];
      const busy = snapshot.value.busy || snapshot.value.test?.running === true;
      return h(
        'form',
        {
          class: 'console-card',
          'aria-labelledby': `provider-${kind}`,
          'data-testid': `provider-${kind}`,
          onSubmit: (event: Event) => {
            event.preventDefault();
            void changed(model.save(kind, form));
          },
        },
        [
          h('div', { class: 'section-head' }, [
            h('h3', { id: `provider-${kind}` }, tm(`console-models.provider.${kind}`)),
            h(
              'span',
              {
                class: [
                  'state',
                  provider.state === 'active' ? 'state-active' : provider.configured ? 'state-error' : 'state-pending',
                ],
              },
              provider.configured ? stateText(provider.state ?? '') : tm('console-models.provider.notConfigured'),
            ),
          ]),
          provider.error ? h('p', { class: 'setting-error' }, provider.error) : null,
          field(
            `${kind}-base-url`,
            tm('console-models.baseUrl'),
            h('input', {
              id: `${kind}-base-url`,
              type: 'url',
              value: form.baseUrl,
              placeholder: kind === 'openai' ? 'http://127.0.0.1:11434/v1' : 'https://api.anthropic.com',
              onInput: (event: Event) => (form.baseUrl = (event.target as HTMLInputElement).value),
            }),
            tm(kind === 'openai' ? 'console-models.baseUrl.hint' : 'console-models.baseUrl.hint.anthropic'),
          ),
          field(
            `${kind}-api-key`,
            tm('console-models.apiKey'),
            h('input', {
              id: `${kind}-api-key`,
              type: 'password',
              autocomplete: 'off',
              value: form.apiKey,
              placeholder: provider.apiKeySet ? tm('console-models.apiKey.kept') : '',
              onInput: (event: Event) => (form.apiKey = (event.target as HTMLInputElement).value),
            }),
          ),
          field(
            `${kind}-headers`,
            tm('console-models.headers'),
            h('textarea', {
              id: `${kind}-headers`,
              rows: 2,
              value: form.headers,
              onInput: (event: Event) => (form.headers = (event.target as HTMLTextAreaElement).value),
            }),
          ),
          h('div', { class: 'console-actions' }, [
            h(
              'button',
              { type: 'button', class: 'button', disabled: busy, onClick: () => void model.test(kind, form) },
              tm('console-models.test'),
            ),
            h('button', { type: 'submit', class: 'button primary', disabled: busy }, tm('console-models.save')),
            provider.configured
              ? deleteButton({
                  label: tm('console-models.delete'),
                  question: tm('console-models.deleteConfirm', { name: tm(`console-models.provider.${kind}`) }),
                  busy,
                  remove: () => void changed(model.remove(kind)),
                })
              : null,
          ]),
          testResult(kind),
          snapshot.value.saved === kind
            ? h('p', { class: 'console-ok', role: 'status' }, tm('console-models.saved'))
            : null,
        ],
      );
    };

    const factsEditor = () => {
      const edit = editing.value;
      if (!edit) return null;
      const form = edit.form;
      const input = (key: keyof FactsForm, label: string, type = 'text') =>
        field(
          `facts-${key}`,
          label,
          h('input', {
            id: `facts-${key}`,
            type,
            value: form[key] as string,
            onInput: (event: Event) => ((form[key] as string) = (event.target as HTMLInputElement).value),
          }),
        );
      return h(
        'form',
        {
          class: 'console-card',
          'data-testid': 'model-facts',
          onSubmit: (event: Event) => {
            event.preventDefault();
            void model.saveFacts(edit.kind, edit.model, factsOf(form)).then((ok) => {
              if (ok) editing.value = undefined;
            });
          },
        },
        [
          h('h3', edit.model),
          input('name', tm('console-models.persona.name')),
          input('contextWindow', tm('console-models.contextWindow'), 'number'),
          input('maxOutputTokens', tm('console-models.maxOutputTokens'), 'number'),
          h('div', { class: 'setting' }, [
            h('label', { class: 'setting-label' }, [
              h('input', {
                type: 'checkbox',
                checked: form.vision,
                onChange: (event: Event) => (form.vision = (event.target as HTMLInputElement).checked),
              }),
              ` ${tm('console-models.vision')}`,
            ]),
          ]),
          field(
            'facts-thinking',
            tm('console-models.thinking'),
            h('input', {
              id: 'facts-thinking',
              value: form.thinking,
              onInput: (event: Event) => (form.thinking = (event.target as HTMLInputElement).value),
            }),
            tm('console-models.thinking.hint'),
          ),
          input('promptPrice', tm('console-models.promptPrice'), 'number'),
          input('completionPrice', tm('console-models.completionPrice'), 'number'),
          input('currency', tm('console-models.currency')),
          h('div', { class: 'console-actions' }, [
            h(
              'button',
              { type: 'submit', class: 'button primary', disabled: snapshot.value.busy },
              tm('console-models.saveFacts'),
            ),
            h(
              'button',
              { type: 'button', class: 'button', onClick: () => (editing.value = undefined) },
              tm('console-models.cancel'),
            ),
          ]),
        ],
      );
    };

    const modelTable = (provider: ProviderView) =>
      provider.models.length === 0
        ? null
        : h('div', { class: 'table-scroll' }, [
            h('table', { class: 'plugins stacked-table', 'data-testid': `models-${provider.kind}` }, [
              h(
                'caption',
                { class: 'muted' },
                tm('console-models.modelList', { name: tm(`console-models.provider.${provider.kind}`) }),
              ),
              tableHead(
                tm('console-models.model'),
                tm('console-models.contextWindow'),
                tm('console-models.vision'),
                tm('console-models.prices'),
                '',
              ),
              h(
                'tbody',
                provider.models.map((entry) =>
                  h('tr', { key: entry.id }, [
                    h('td', [h('div', entry.name), h('code', { class: 'muted' }, entry.id)]),
                    h('td', { 'data-label': tm('console-models.contextWindow') }, String(entry.contextWindow)),
                    h(
                      'td',
                      { 'data-label': tm('console-models.vision') },
                      tm(entry.vision ? 'console-models.yes' : 'console-models.no'),
                    ),
                    h(
                      'td',
                      { 'data-label': tm('console-models.prices') },
                      entry.prices
                        ? `${entry.prices.promptPerMillion} / ${entry.prices.completionPerMillion} ${entry.prices.currency ?? ''}`
                        : '—',
                    ),
                    h('td', { class: 'console-actions' }, [
                      snapshot.value.defaultModel === entry.id
                        ? h('span', { class: 'state state-active' }, tm('console-models.persona.default'))
                        : h(
                            'button',
                            {
                              type: 'button',
                              class: 'button',
                              disabled: snapshot.value.busy,
                              'aria-label': `${tm('console-models.defaultModel.set')}: ${entry.id}`,
                              onClick: () => void changed(model.setDefault(entry.id)),
                            },
                            tm('console-models.defaultModel.set'),
                          ),
                      h(
                        'button',
                        {
                          type: 'button',
                          class: 'button',
                          'aria-label': `${tm('console-models.editFacts')}: ${entry.id}`,
                          onClick: () =>
                            (editing.value = {
                              kind: provider.kind,
                              model: entry.model,
                              form: reactive(factsForm(entry)),
                            }),
                        },
                        tm('console-models.editFacts'),
                      ),
                    ]),
                  ]),
                ),
              ),
            ]),
          ]);

    return () => {
      const { providers, defaultModel, error } = snapshot.value;
      const all = providers.flatMap((provider) => provider.models);
      return h(
        'section',
        { 'aria-labelledby': 'admin-models', class: 'console-section', 'data-testid': 'models-section' },
        [
          h('h2', { id: 'admin-models' }, tm('console-models.models')),
          h('p', { class: 'muted' }, tm('console-models.models.intro')),
          errorAlert(error),
          h('div', { class: 'setting' }, [
            h('label', { for: 'console-default-model', class: 'setting-label' }, tm('console-models.defaultModel')),
            h('div', { class: 'setting-control' }, [
              h(
                'select',
                {
                  id: 'console-default-model',
                  value: defaultModel,
                  disabled: snapshot.value.busy,
                  onChange: (event: Event) => {
                    const value = (event.target as HTMLSelectElement).value;
                    void changed(model.setDefault(value === '' ? null : value));
                  },
                },
                [
                  h('option', { value: '' }, tm('console-models.defaultModel.none')),
                  ...all.map((entry) => h('option', { key: entry.id, value: entry.id }, `${entry.name} (${entry.id})`)),
                  defaultModel !== '' && !all.some((entry) => entry.id === defaultModel)
                    ? h('option', { value: defaultModel }, defaultModel)
                    : null,
                ],
              ),
            ]),
          ]),
          ...KINDS.flatMap((kind) => {
            const provider = providers.find((candidate) => candidate.kind === kind);
            return provider ? [providerForm(provider), modelTable(provider)] : [];
          }),
          factsEditor(),
        ],
      );
    };
  },
});
