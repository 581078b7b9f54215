import { defineComponent, h } from 'vue';
import { tm } from '../console-models-texts.js';
import { type PersonaDraft, PersonasModel } from '../model/personas-model.js';
import { useConsoleModel } from '../use-console-model.js';
import '../console-models.css';
import { codedErrorNodes, errorAlert } from './coded-error.js';
import { consoleProps } from './console-props.js';
import { consoleSection } from './console-section.js';
import { deleteButton } from './delete-button.js';

export const PersonasView = defineComponent({
  name: 'PersonasView',
  props: consoleProps,
  setup(props) {
    const { model, snapshot } = useConsoleModel(props, PersonasModel);

    const input = (draft: PersonaDraft, key: 'personaId' | 'name', label: string, readonly = false) =>
      h('div', { class: 'setting' }, [
        h('label', { for: `persona-${key}`, class: 'setting-label' }, label),
        h('div', { class: 'setting-control' }, [
          h('input', {
            id: `persona-${key}`,
            value: draft[key],
            readonly,
            onInput: (event: Event) => (draft[key] = (event.target as HTMLInputElement).value),
          }),
        ]),
      ]);
    const area = (draft: PersonaDraft, key: 'prompt' | 'structuredOutput', label: string, rows: number) =>
      h('div', { class: 'setting' }, [
        h('label', { for: `persona-${key}`, class: 'setting-label' }, label),
        h('div', { class: 'setting-control' }, [
          h('textarea', {
            id: `persona-${key}`,
            rows,
            value: draft[key],
            onInput: (event: Event) => (draft[key] = (event.target as HTMLTextAreaElement).value),
          }),
        ]),
      ]);

    return () => {
      const { personas, problems, draft, busy, error, saved } = snapshot.value;
      // The form writes into the draft object itself: it lives until the model replaces it (open, save, close).
      const editing = draft;
      const current = draft?.revision ? personas.find((persona) => persona.id === draft.personaId) : undefined;
      return consoleSection(
        {
          id: 'admin-personas',
          testId: 'personas-section',
          title: tm('console-models.personas'),
          actions: [
            h(
              'button',
              { type: 'button', class: 'button', onClick: () => model.edit(undefined) },
              tm('console-models.personas.new'),
            ),
          ],
        },
        [
          h('p', { class: 'muted' }, tm('console-models.personas.intro')),
          h(
            'ul',
            { class: 'console-list', 'data-testid': 'personas' },
            personas.map((persona) =>
              h('li', { key: persona.id }, [
                h(
                  'button',
                  {
                    type: 'button',
                    class: ['link-button', draft?.personaId === persona.id && draft.revision ? 'selected' : ''],
                    'aria-pressed': String(draft?.personaId === persona.id && Boolean(draft.revision)),
                    onClick: () => model.edit(persona),
                  },
                  persona.name,
                ),
                ' ',
                h('code', { class: 'muted' }, persona.id),
                persona.isDefault
                  ? h('span', { class: 'state state-active' }, tm('console-models.persona.default'))
                  : null,
              ]),
            ),
          ),
          problems.length > 0
            ? h('div', { class: 'setting-error', role: 'alert' }, [
                h('p', tm('console-models.persona.problems')),
                ...problems.map((problem) => h('p', codedErrorNodes(problem.message, problem.code))),
              ])
            : null,
          errorAlert(error),
          editing
            ? h(
                'form',
                {
                  class: 'console-card',
                  'data-testid': 'persona-form',
                  onSubmit: (event: Event) => {
                    event.preventDefault();
                    void model.save(editing, tm('console-models.persona.structuredOutput.invalid'));
                  },
                },
                [
                  input(editing, 'personaId', tm('console-models.persona.id'), Boolean(editing.revision)),
                  input(editing, 'name', tm('console-models.persona.name')),
                  area(editing, 'prompt', tm('console-models.persona.prompt'), 8),
                  area(editing, 'structuredOutput', tm('console-models.persona.structuredOutput'), 3),
                  h('div', { class: 'console-actions' }, [
                    h('button', { type: 'submit', class: 'button primary', disabled: busy }, tm('console-models.save')),
                    current && !current.isDefault
                      ? deleteButton({
                          label: tm('console-models.delete'),
                          question: tm('console-models.persona.deleteConfirm', { name: current.name }),
                          busy,
                          remove: () => void model.remove(current),
                        })
                      : null,
                    h(
                      'button',
                      { type: 'button', class: 'button', onClick: () => model.close() },
                      tm('console-models.cancel'),
                    ),
                  ]),
                  saved ? h('p', { class: 'console-ok', role: 'status' }, tm('console-models.saved')) : null,
                ],
              )
            : null,
        ],
      );
    };
  },
});
