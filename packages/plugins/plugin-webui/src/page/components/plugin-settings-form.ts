// One plugin's settings form, generated from its schema (model/plugin-settings.ts): each field labelled by its key,
// its help and default beside it, secrets masked, the server's validation messages under the field in the page's
// language. 保存/Save sends the section; the server applies it live and says how the plugin runs now.
import type { ConfigIssueView, PluginConfigView, PluginView } from '@aalis/session-client';
import { defineComponent, h, onMounted, type PropType, ref, shallowRef, type VNode } from 'vue';
import { tc } from '../console-texts.js';
import {
  defaultText,
  type FormField,
  formFields,
  inputText,
  isMasked,
  issuesByField,
  parseInput,
  valueAt,
  withValue,
} from '../model/plugin-settings.js';
import { consoleProps } from './console-props.js';

/** How a plugin runs after a change, as one phrase ("running", "waiting for llm", "failing: …"). */
export function stateSentence(plugin: { state: string; missing: string[]; error?: string }): string {
  if (plugin.state === 'active') return tc('webui-console.state.activeNow');
  if (plugin.state === 'pending') return tc('webui-console.state.pendingNow', { services: plugin.missing.join(', ') });
  if (plugin.state === 'error') return tc('webui-console.state.errorNow', { error: plugin.error ?? '' });
  if (plugin.state === 'disabled') return tc('webui-console.state.disabled');
  if (plugin.state === 'unconfigured') return tc('webui-console.state.unconfigured');
  return plugin.state;
}

interface Outcome {
  text: string;
  error: boolean;
}

export const PluginSettingsForm = defineComponent({
  name: 'PluginSettingsForm',
  props: {
    ...consoleProps,
    plugin: { type: Object as PropType<PluginView>, required: true },
    onSaved: { type: Function as PropType<() => void>, required: true },
  },
  setup(props) {
    // Shallow: the draft is replaced whole on every change and copied with structuredClone, which a reactive proxy
    // would refuse.
    const config = shallowRef<PluginConfigView | undefined>();
    const fields = shallowRef<FormField[]>([]);
    const draft = shallowRef<Record<string, unknown>>({});
    /** What is typed into number and JSON inputs, kept while it does not parse. */
    const typed = ref<Record<string, string>>({});
    const problems = ref<Record<string, 'number' | 'json'>>({});
    const issues = shallowRef<Map<string, ConfigIssueView[]>>(new Map());
    const outcome = ref<Outcome | undefined>();
    const saving = ref(false);
    const idBase = `ps-${props.plugin.id.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
    const idOf = (path: string) => `${idBase}-${path.replace(/[^a-zA-Z0-9_-]/g, '-')}`;

    const load = async () => {
      const loaded = await props.client.request('admin.config.get', { plugin: props.plugin.id });
      config.value = loaded;
      fields.value = formFields(loaded.schema, loaded.secrets);
      draft.value = structuredClone(loaded.values);
      typed.value = {};
      problems.value = {};
    };
    onMounted(
      () =>
        void load().catch((error: unknown) => {
          outcome.value = { text: props.describeError(error), error: true };
        }),
    );

    const set = (path: string, value: unknown) => {
      draft.value = withValue(draft.value, path, value);
      if (issues.value.has(path)) {
        const next = new Map(issues.value);
        next.delete(path);
        issues.value = next;
      }
    };

    const setTyped = (field: FormField, text: string) => {
      typed.value = { ...typed.value, [field.path]: text };
      const parsed = parseInput(field, text);
      const { [field.path]: _, ...others } = problems.value;
      if ('problem' in parsed) problems.value = { ...others, [field.path]: parsed.problem };
      else {
        problems.value = others;
        set(field.path, parsed.value);
      }
    };

    const save = async () => {
      const current = config.value;
      if (!current || saving.value) return;
      if (Object.keys(problems.value).length > 0) {
        outcome.value = { text: tc('webui-console.fixFirst'), error: true };
        return;
      }
      saving.value = true;
      outcome.value = { text: tc('webui-console.saving'), error: false };
      try {
        const result = await props.client.request('admin.config.set', {
          plugin: current.plugin,
          values: draft.value,
          revision: current.revision,
        });
        issues.value = new Map();
        outcome.value = {
          text:
            result.changes.length === 0
              ? tc('webui-console.unchanged')
              : tc('webui-console.saved', { plugin: props.plugin.name, state: stateSentence(result.plugin) }),
          error: result.plugin.state === 'error',
        };
        await load();
        props.onSaved();
      } catch (error) {
        const details = (error as { details?: { issues?: unknown } }).details;
        issues.value = Array.isArray(details?.issues)
          ? issuesByField(details.issues as ConfigIssueView[], current.key, fields.value)
          : new Map();
        outcome.value = { text: props.describeError(error), error: true };
      } finally {
        saving.value = false;
      }
    };

    const messages = (field: FormField): { id: string; nodes: VNode[] } => {
      const id = `${idOf(field.path)}-note`;
      const nodes: VNode[] = [];
      if (field.help) nodes.push(h('span', { class: 'field-help' }, field.help));
      const fallback = defaultText(field);
      if (fallback !== undefined)
        nodes.push(h('span', { class: 'field-default' }, tc('webui-console.default', { value: fallback })));
      const bounds = boundsText(field);
      if (bounds) nodes.push(h('span', { class: 'field-default' }, bounds));
      if (field.control === 'password' && isMasked(valueAt(draft.value, field.path))) {
        nodes.push(h('span', { class: 'field-default' }, tc('webui-console.secretKept')));
      }
      if (field.control === 'json') nodes.push(h('span', { class: 'field-default' }, tc('webui-console.json')));
      const problem = problems.value[field.path];
      if (problem) {
        nodes.push(
          h(
            'span',
            { class: 'setting-error' },
            tc(problem === 'json' ? 'webui-console.jsonInvalid' : 'webui-console.numberInvalid'),
          ),
        );
      }
      for (const issue of issues.value.get(field.path) ?? []) {
        nodes.push(
          h('span', { class: 'setting-error', 'data-testid': 'field-issue' }, [
            issue.path.endsWith(field.path) ? '' : `${issue.path}: `,
            tc('webui-console.issue', { expected: issue.expected, received: issue.received }),
          ]),
        );
      }
      return { id, nodes };
    };

    const invalid = (field: FormField) =>
      problems.value[field.path] !== undefined || (issues.value.get(field.path)?.length ?? 0) > 0;

    const renderField = (field: FormField): VNode => {
      const id = idOf(field.path);
      const note = messages(field);
      const described = note.nodes.length > 0 ? { 'aria-describedby': note.id } : {};
      const noteNode = note.nodes.length > 0 ? h('p', { id: note.id, class: 'field-note' }, note.nodes) : null;
      const value = valueAt(draft.value, field.path);
      const common = { id, name: field.path, 'aria-invalid': String(invalid(field)), ...described };
      switch (field.control) {
        case 'group':
          return h('fieldset', { key: field.path, class: 'field-group', ...described }, [
            h('legend', field.key),
            noteNode,
            ...(field.fields ?? []).map(renderField),
          ]);
        case 'boolean':
          return h('div', { key: field.path, class: 'field field-check' }, [
            h('input', {
              ...common,
              type: 'checkbox',
              checked: (value ?? field.default) === true,
              onChange: (event: Event) => set(field.path, (event.target as HTMLInputElement).checked),
            }),
            h('label', { for: id }, field.key),
            noteNode,
          ]);
        case 'enum':
          return h('div', { key: field.path, class: 'field' }, [
            h('label', { for: id }, field.key),
            h(
              'select',
              {
                ...common,
                value: value === undefined ? '' : String(value),
                onChange: (event: Event) => {
                  const chosen = (event.target as HTMLSelectElement).value;
                  const match = field.values?.find((candidate) => String(candidate) === chosen);
                  set(field.path, chosen === '' ? undefined : match);
                },
              },
              [
                h(
                  'option',
                  { value: '' },
                  field.default !== undefined
                    ? tc('webui-console.useDefault', { value: String(field.default) })
                    : tc('webui-console.unset'),
                ),
                ...(field.values ?? []).map((choice) => h('option', { value: String(choice) }, String(choice))),
              ],
            ),
            noteNode,
          ]);
        case 'list':
        case 'record':
          return renderEntries(field, value, common, noteNode);
        case 'number':
        case 'json': {
          const text = typed.value[field.path] ?? inputText(field, value);
          const input =
            field.control === 'number'
              ? h('input', {
                  ...common,
                  type: 'number',
                  inputmode: 'decimal',
                  value: text,
                  step: field.integer ? 1 : 'any',
                  ...(field.min !== undefined ? { min: field.min } : {}),
                  ...(field.max !== undefined ? { max: field.max } : {}),
                  placeholder: defaultText(field) ?? '',
                  onInput: (event: Event) => setTyped(field, (event.target as HTMLInputElement).value),
                })
              : h('textarea', {
                  ...common,
                  rows: Math.min(10, Math.max(3, text.split('\n').length)),
                  spellcheck: 'false',
                  value: text,
                  onInput: (event: Event) => setTyped(field, (event.target as HTMLTextAreaElement).value),
                });
          return h('div', { key: field.path, class: 'field' }, [h('label', { for: id }, field.key), input, noteNode]);
        }
        default: {
          const text = inputText(field, value);
          const onInput = (event: Event) => {
            const parsed = parseInput(field, (event.target as HTMLInputElement | HTMLTextAreaElement).value);
            if ('value' in parsed) set(field.path, parsed.value);
          };
          const input =
            field.control === 'textarea'
              ? h('textarea', { ...common, rows: 4, value: text, placeholder: defaultText(field) ?? '', onInput })
              : h('input', {
                  ...common,
                  type: field.control === 'password' ? 'password' : 'text',
                  autocomplete: field.control === 'password' ? 'new-password' : 'off',
                  value: text,
                  placeholder: defaultText(field) ?? '',
                  onInput,
                });
          return h('div', { key: field.path, class: 'field' }, [h('label', { for: id }, field.key), input, noteNode]);
        }
      }
    };

    /** A list (one input per item) or a map (a key and a value per entry), with add and remove. */
    const renderEntries = (
      field: FormField,
      value: unknown,
      common: Record<string, unknown>,
      noteNode: VNode | null,
    ) => {
      const list = field.control === 'list';
      const entries: [string, unknown][] = list
        ? (Array.isArray(value) ? value : []).map((item, index) => [String(index), item])
        : Object.entries(typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
      const write = (next: [string, unknown][]) =>
        set(field.path, list ? next.map(([, item]) => item) : Object.fromEntries(next));
      const convert = (text: string) =>
        field.entry === 'number' && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
      return h(
        'fieldset',
        { key: field.path, class: 'field-group field-entries', 'aria-invalid': common['aria-invalid'] },
        [
          h('legend', field.key),
          noteNode,
          ...entries.map(([key, item], index) =>
            h('div', { key: `${field.path}-${index}`, class: 'field-entry' }, [
              list
                ? null
                : h('input', {
                    type: 'text',
                    value: key,
                    'aria-label': tc('webui-console.entryKey', { key: field.key, index: index + 1 }),
                    onChange: (event: Event) => {
                      const next = [...entries];
                      next[index] = [(event.target as HTMLInputElement).value, item];
                      write(next);
                    },
                  }),
              h('input', {
                type: field.entry === 'number' ? 'number' : 'text',
                value: item === undefined ? '' : String(item),
                'aria-label': list
                  ? tc('webui-console.item', { key: field.key, index: index + 1 })
                  : tc('webui-console.entryValue', { key: field.key, index: index + 1 }),
                onInput: (event: Event) => {
                  const next = [...entries];
                  next[index] = [key, convert((event.target as HTMLInputElement).value)];
                  write(next);
                },
              }),
              h(
                'button',
                {
                  type: 'button',
                  class: 'icon-button',
                  'aria-label': tc('webui-console.remove', { key: field.key, index: index + 1 }),
                  title: tc('webui-console.remove', { key: field.key, index: index + 1 }),
                  onClick: () => {
                    const next = entries.filter((_, other) => other !== index);
                    set(
                      field.path,
                      next.length === 0 ? undefined : list ? next.map(([, entry]) => entry) : Object.fromEntries(next),
                    );
                  },
                },
                '×',
              ),
            ]),
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'button',
              onClick: () =>
                write([...entries, [list ? String(entries.length) : '', field.entry === 'number' ? 0 : '']]),
            },
            `${tc('webui-console.add')} · ${field.key}`,
          ),
        ],
      );
    };

    return () => {
      const current = config.value;
      return h(
        'form',
        {
          class: 'plugin-form',
          'aria-label': tc('webui-console.settingsOf', { plugin: props.plugin.name }),
          novalidate: true,
          onSubmit: (event: Event) => {
            event.preventDefault();
            void save();
          },
        },
        [
          current && fields.value.length === 0 ? h('p', { class: 'muted' }, tc('webui-console.noSettings')) : null,
          ...fields.value.map(renderField),
          (issues.value.get('') ?? []).map((issue) =>
            h(
              'p',
              { class: 'setting-error' },
              `${issue.path}: ${tc('webui-console.issue', { expected: issue.expected, received: issue.received })}`,
            ),
          ),
          h('div', { class: 'form-actions' }, [
            h(
              'button',
              { type: 'submit', class: 'button primary', disabled: !current || saving.value },
              tc('webui-console.save'),
            ),
            current
              ? h(
                  'span',
                  { class: 'muted' },
                  tc(current.source === 'database' ? 'webui-console.source.database' : 'webui-console.source.file'),
                )
              : null,
          ]),
          outcome.value
            ? h(
                'p',
                {
                  class: outcome.value.error ? 'setting-error' : 'setting-note',
                  role: outcome.value.error ? 'alert' : 'status',
                  'data-testid': 'settings-outcome',
                },
                outcome.value.text,
              )
            : null,
        ],
      );
    };
  },
});

function boundsText(field: FormField): string | undefined {
  if (field.control !== 'number') return undefined;
  if (field.min !== undefined && field.max !== undefined)
    return tc('webui-console.between', { min: field.min, max: field.max });
  if (field.min !== undefined) return tc('webui-console.atLeast', { min: field.min });
  if (field.max !== undefined) return tc('webui-console.atMost', { max: field.max });
  return undefined;
}
