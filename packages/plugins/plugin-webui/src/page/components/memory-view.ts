import { defineComponent, h, type PropType, ref, type VNodeArrayChildren } from 'vue';
import { tm } from '../memory-texts.js';
import { MemoryModel, skillsByScope } from '../model/memory-model.js';
import type { TextKey } from '../page-translator.js';
import { useConsoleModel } from '../use-console-model.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { consoleProps } from './console-props.js';
import { memoryItems, personLabel, scopeLabel, when } from './memory-items.js';
import { pickItem } from './pick-item.js';

/**
 * One box of the selected person's memory: its heading, a note when that part of memory does not run here (`missing`
 * names it), then what it holds. `id` is the heading's id and the box's test id.
 */
function memoryBox(id: string, title: string, missing: string | undefined, content: VNodeArrayChildren) {
  return h('section', { class: 'memory-box', 'aria-labelledby': id, 'data-testid': id }, [
    h('h2', { id, class: 'memory-heading' }, title),
    missing === undefined ? null : h('p', { class: 'muted' }, tm('webui-page.memory.unavailable', { part: missing })),
    ...content,
  ]);
}

export const MemoryView = defineComponent({
  name: 'MemoryView',
  props: {
    ...consoleProps,
    onBack: { type: Function as PropType<() => void>, required: true },
  },
  setup(props) {
    const { model, snapshot } = useConsoleModel(props, MemoryModel);
    const query = ref('');
    const draftFact = ref('');
    const draftName = ref('');
    const draftContent = ref('');

    const { factItem, skillItem, messageItem } = memoryItems(model, snapshot, {
      fact: draftFact,
      name: draftName,
      content: draftContent,
    });

    const searchResults = () => {
      const found = snapshot.value.search;
      if (!found) return null;
      const none = found.facts.length + found.skills.length + found.messages.length === 0;
      return h(
        'section',
        { class: 'memory-box', 'aria-labelledby': 'memory-results', 'data-testid': 'memory-results' },
        [
          h('div', { class: 'section-head' }, [
            h('h2', { id: 'memory-results', class: 'memory-heading' }, tm('webui-page.memory.results')),
            h(
              'button',
              {
                type: 'button',
                class: 'button',
                onClick: () => {
                  query.value = '';
                  model.clearSearch();
                },
              },
              tm('webui-page.memory.clearSearch'),
            ),
          ]),
          none
            ? h(
                'p',
                { class: 'muted', 'data-testid': 'memory-nothing-found' },
                tm('webui-page.memory.nothingFound', { query: found.query }),
              )
            : null,
          found.facts.length > 0
            ? h(
                'ul',
                { class: 'memory-list plain-list' },
                found.facts.map((fact) => factItem(fact, false)),
              )
            : null,
          found.skills.length > 0
            ? h(
                'ul',
                { class: 'memory-list plain-list' },
                found.skills.map((skill) => skillItem(skill, false)),
              )
            : null,
          found.messages.length > 0
            ? [
                h('h3', tm('webui-page.memory.messages')),
                h(
                  'ul',
                  { class: 'memory-list plain-list' },
                  found.messages.map((message) => messageItem(message)),
                ),
              ]
            : null,
        ],
      );
    };

    return () => {
      const state = snapshot.value;
      const list = state.list;
      const notice = state.notice;
      return h('main', { id: 'main', class: 'memory-page', 'data-testid': 'memory', tabindex: -1 }, [
        h('div', { class: 'admin-head' }, [
          h('h1', tm('webui-page.memory.title')),
          h(
            'button',
            { type: 'button', class: 'button', 'data-testid': 'memory-back', onClick: () => props.onBack() },
            tm('webui-page.memory.back'),
          ),
        ]),
        list
          ? h('p', { class: 'muted' }, tm(list.all ? 'webui-page.memory.intro.all' : 'webui-page.memory.intro.own'))
          : null,
        list?.index
          ? h(
              'p',
              { class: 'muted', 'data-testid': 'memory-index' },
              [
                tm('webui-page.memory.index', {
                  count: list.index.indexed,
                  state: tm(`webui-page.memory.vectors.${list.index.vectors.state}` as TextKey<typeof tm>),
                }),
                list.index.vectors.error
                  ? ` — ${list.index.vectors.error.message} (${list.index.vectors.error.code})`
                  : '',
              ].join(''),
            )
          : null,
        h(
          'form',
          {
            class: 'memory-search',
            role: 'search',
            onSubmit: (event: Event) => {
              event.preventDefault();
              void model.search(query.value);
            },
          },
          [
            h('input', {
              type: 'search',
              'aria-label': tm('webui-page.memory.search'),
              placeholder: tm('webui-page.memory.searchPlaceholder'),
              'data-testid': 'memory-search-input',
              maxlength: 200,
              value: query.value,
              onInput: (event: Event) => {
                query.value = (event.target as HTMLInputElement).value;
              },
            }),
            h(
              'button',
              { type: 'submit', class: 'button', 'data-testid': 'memory-search-button' },
              tm('webui-page.memory.searchButton'),
            ),
          ],
        ),
        state.error
          ? h('p', { class: 'workflow-error', role: 'alert', 'data-testid': 'memory-error' }, state.error)
          : null,
        notice
          ? h(
              'p',
              { class: 'memory-notice', role: 'status', 'data-testid': 'memory-notice' },
              notice.kind === 'forgot'
                ? tm('webui-page.memory.forgotMessages', { count: notice.count })
                : tm('webui-page.memory.deleted'),
            )
          : null,
        searchResults(),
        list
          ? h('div', { class: 'memory-layout' }, [
              h(
                'nav',
                {
                  class: 'memory-people',
                  'aria-label': tm('webui-page.memory.people'),
                  'data-testid': 'memory-people',
                },
                [
                  h('h2', { class: 'memory-heading' }, tm('webui-page.memory.people')),
                  list.people.length === 0 ? h('p', { class: 'muted' }, tm('webui-page.memory.noPeople')) : null,
                  h(
                    'ul',
                    list.people.map((entry) =>
                      pickItem(
                        {
                          key: entry.person,
                          selected: entry.person === state.person,
                          testId: 'memory-person',
                          onPick: () => void model.load(entry.person),
                        },
                        [
                          h('span', { class: 'workflow-name' }, personLabel(entry.person)),
                          h('span', { class: 'muted' }, tm('webui-page.memory.factCount', { count: entry.facts })),
                        ],
                      ),
                    ),
                  ),
                ],
              ),
              h('div', { class: 'memory-detail' }, [
                memoryBox(
                  'memory-facts',
                  tm('webui-page.memory.facts', { person: personLabel(list.person) }),
                  list.available.profiles ? undefined : tm('webui-page.memory.part.profiles'),
                  [
                    list.facts.length === 0 ? h('p', { class: 'muted' }, tm('webui-page.memory.noFacts')) : null,
                    h(
                      'ul',
                      { class: 'memory-list plain-list' },
                      list.facts.map((fact) => factItem(fact, true)),
                    ),
                  ],
                ),
                memoryBox(
                  'memory-skills',
                  tm('webui-page.memory.skills'),
                  list.available.skills ? undefined : tm('webui-page.memory.part.skills'),
                  [
                    list.skills.length === 0 ? h('p', { class: 'muted' }, tm('webui-page.memory.noSkills')) : null,
                    ...skillsByScope(list.skills).map((group) =>
                      h('div', { key: group.scope, class: 'memory-scope' }, [
                        h('h3', scopeLabel(group.scope)),
                        h(
                          'ul',
                          { class: 'memory-list plain-list' },
                          group.skills.map((skill) => skillItem(skill, true)),
                        ),
                      ]),
                    ),
                  ],
                ),
                memoryBox(
                  'memory-recalls',
                  tm('webui-page.memory.recalls'),
                  list.available.recall ? undefined : tm('webui-page.memory.part.recall'),
                  [
                    (list.recalls ?? []).length === 0
                      ? h('p', { class: 'muted' }, tm('webui-page.memory.noRecalls'))
                      : null,
                    ...(list.recalls ?? []).map((record, index) =>
                      h('div', { key: `${record.sessionId}-${record.at}-${index}`, class: 'memory-recall' }, [
                        h('p', { class: 'muted memory-meta' }, [
                          when(record.at),
                          ' · ',
                          record.sessionId,
                          ' · ',
                          tm('webui-page.memory.recallTerms', { terms: record.terms.join(' ') }),
                        ]),
                        h(
                          'ul',
                          { class: 'memory-list plain-list' },
                          record.items.map((item) => messageItem(item, item.matched)),
                        ),
                      ]),
                    ),
                  ],
                ),
              ]),
            ])
          : null,
        state.deleting
          ? h(ConfirmDialog, {
              title:
                state.deleting.kind === 'fact'
                  ? tm('webui-page.memory.deleteFact')
                  : tm('webui-page.memory.deleteSkill', { name: state.deleting.label }),
              lines: [
                state.deleting.kind === 'fact'
                  ? tm('webui-page.memory.deleteFactDetail', { fact: state.deleting.label })
                  : tm('webui-page.memory.deleteSkillDetail'),
              ],
              confirmLabel: tm('webui-page.memory.delete'),
              onAnswer: (confirmed: boolean) => void model.answerDelete(confirmed),
            })
          : null,
      ]);
    };
  },
});
