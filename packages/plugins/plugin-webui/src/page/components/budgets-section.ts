// The owner's 预算/Budgets section: each kind's limit (a person per day, a chat per day, the deployment per month),
// where it comes from (configured or adjusted) with a form to adjust it or go back to the configured value, what the
// deployment used this month, and today's chats and people that used the most, each against its limit.
import type { BudgetKindView, BudgetOverviewView } from '@aalis/session-client';
import { defineComponent, h, onMounted, reactive, ref } from 'vue';
import { tb } from '../budget-texts.js';
import {
  type AmountFormat,
  amountText,
  budgetLevel,
  limitText,
  parseLimit,
  percentUsed,
} from '../model/budget-view.js';
import { preferences } from '../page-preferences.js';
import type { TextKey } from '../page-translator.js';
import '../budget.css';
import { codedErrorLine, errorAlert } from './coded-error.js';
import { consoleProps } from './console-props.js';
import { consoleSection } from './console-section.js';
import { tableHead } from './table-head.js';

const KINDS: BudgetKindView[] = ['person', 'room', 'deployment'];

export function formatOf(overview: { unit: 'tokens' | 'money'; currency: string }): AmountFormat {
  return {
    unit: overview.unit,
    currency: overview.currency,
    locale: preferences.locale,
    unlimited: tb('budget-page.unlimited'),
  };
}

/** A bar of `used` against `limit` (a `meter`, so a screen reader says the share), with the figures beside it. */
export function budgetBar(used: number, limit: number, warnAt: number, format: AmountFormat, label: string) {
  const percent = percentUsed(used, limit);
  return h('div', { class: ['budget-bar', `budget-${budgetLevel(used, limit, warnAt)}`] }, [
    limit > 0
      ? h('meter', {
          min: 0,
          max: limit,
          low: limit * warnAt,
          high: limit * warnAt,
          optimum: 0,
          value: Math.min(used, limit),
          'aria-label': label,
        })
      : null,
    h('span', { class: 'budget-figures' }, [
      tb('budget-page.usedOf', { used: amountText(used, format), limit: limitText(limit, format) }),
      percent !== undefined ? ` · ${tb('budget-page.percent', { percent })}` : '',
    ]),
  ]);
}

export const BudgetsSection = defineComponent({
  name: 'BudgetsSection',
  props: consoleProps,
  setup(props) {
    const enabled = ref<boolean | undefined>();
    const overview = ref<BudgetOverviewView | undefined>();
    const drafts = reactive<Record<BudgetKindView, string>>({ person: '', room: '', deployment: '' });
    const problems = reactive<Partial<Record<BudgetKindView, string>>>({});
    const problem = ref<string | undefined>();
    const saved = ref<string | undefined>();
    const busy = ref(false);
    const show = (next: BudgetOverviewView | undefined) => {
      overview.value = next;
      for (const limit of next?.limits ?? []) drafts[limit.kind] = String(limit.limit);
    };
    const load = async () => {
      problem.value = undefined;
      try {
        const result = await props.client.request('admin.budgets.get', {});
        enabled.value = result.enabled;
        show(result.overview);
      } catch (error) {
        problem.value = props.describeError(error);
      }
    };
    const kindText = (kind: BudgetKindView) => tb(`budget-page.kind.${kind}` as TextKey<typeof tb>);
    const write = async (kind: BudgetKindView, limit: number | null) => {
      saved.value = undefined;
      problems[kind] = undefined;
      busy.value = true;
      try {
        const result = await props.client.request('admin.budgets.set', { kind, limit });
        show(result.overview);
        saved.value = tb('budget-page.saved', {
          kind: kindText(kind),
          limit: limitText(result.limit.limit, formatOf(result.overview)),
        });
      } catch (error) {
        problems[kind] = props.describeError(error);
      } finally {
        busy.value = false;
      }
    };
    const save = (kind: BudgetKindView) => {
      const limit = parseLimit(drafts[kind]);
      if (limit === undefined) {
        problems[kind] = tb('budget-page.invalid');
        return;
      }
      void write(kind, limit);
    };
    onMounted(() => void load());

    const spendTable = (
      caption: string,
      head: string,
      rows: { id: string; used: number; title?: string }[],
      limit: number,
      current: BudgetOverviewView,
      testId: string,
    ) => {
      const format = formatOf(current);
      return h('div', { class: 'budget-spend' }, [
        h('h3', caption),
        rows.length === 0
          ? h('p', { class: 'muted' }, tb('budget-page.none'))
          : h('table', { class: 'plugins', 'data-testid': testId }, [
              tableHead(head, tb('budget-page.used'), tb('budget-page.share')),
              h(
                'tbody',
                rows.map((row) =>
                  h('tr', { key: row.id }, [
                    h('td', [
                      row.title ? h('div', row.title) : null,
                      h('code', { class: row.title ? 'muted' : '' }, row.id),
                    ]),
                    h('td', amountText(row.used, format)),
                    h('td', budgetBar(row.used, limit, current.warnAt, format, `${row.title ?? row.id}`)),
                  ]),
                ),
              ),
            ]),
      ]);
    };

    return () => {
      const current = overview.value;
      const body = [];
      if (problem.value) body.push(h('p', { class: 'setting-error', role: 'alert' }, codedErrorLine(problem.value)));
      if (enabled.value === false)
        body.push(h('p', { class: 'muted', 'data-testid': 'budgets-disabled' }, tb('budget-page.disabled')));
      if (current) {
        const format = formatOf(current);
        const limitOf = (kind: BudgetKindView) => current.limits.find((limit) => limit.kind === kind)?.limit ?? 0;
        body.push(
          h(
            'p',
            { class: 'muted' },
            tb('budget-page.intro', {
              unit:
                current.unit === 'money'
                  ? tb('budget-page.unit.money', { currency: current.currency })
                  : tb('budget-page.unit.tokens'),
              timeZone: current.timeZone,
              day: current.day,
              month: current.month,
              warnAt: Math.round(current.warnAt * 100),
            }),
          ),
          h('div', { class: 'budget-limits' }, [
            ...KINDS.map((kind) => {
              const limit = current.limits.find((entry) => entry.kind === kind);
              if (!limit) return null;
              const id = `budget-limit-${kind}`;
              return h(
                'form',
                {
                  key: kind,
                  class: 'console-card budget-limit',
                  // Our own check says what is wrong, in the page's language, beside the field.
                  novalidate: true,
                  'data-testid': `budget-${kind}`,
                  onSubmit: (event: Event) => {
                    event.preventDefault();
                    save(kind);
                  },
                },
                [
                  h('label', { for: id, class: 'setting-label' }, tb('budget-page.limitOf', { kind: kindText(kind) })),
                  h('div', { class: 'console-actions' }, [
                    h('input', {
                      id,
                      type: 'number',
                      min: 0,
                      step: 'any',
                      inputmode: 'decimal',
                      value: drafts[kind],
                      'aria-describedby': `${id}-note`,
                      onInput: (event: Event) => {
                        drafts[kind] = (event.target as HTMLInputElement).value;
                      },
                    }),
                    h(
                      'button',
                      {
                        type: 'submit',
                        class: 'button primary',
                        disabled: busy.value,
                        'aria-label': tb('budget-page.saveOf', { kind: kindText(kind) }),
                      },
                      tb('budget-page.save'),
                    ),
                    limit.adjusted
                      ? h(
                          'button',
                          {
                            type: 'button',
                            class: 'button',
                            disabled: busy.value,
                            'aria-label': tb('budget-page.resetOf', { kind: kindText(kind) }),
                            onClick: () => void write(kind, null),
                          },
                          tb('budget-page.reset'),
                        )
                      : null,
                  ]),
                  h('p', { id: `${id}-note`, class: 'setting-note' }, [
                    limit.adjusted
                      ? tb('budget-page.source.adjusted', { configured: limitText(limit.configured, format) })
                      : tb('budget-page.source.configured'),
                    ' · ',
                    tb('budget-page.limitHint'),
                  ]),
                  errorAlert(problems[kind]),
                ],
              );
            }),
          ]),
          saved.value ? h('p', { class: 'console-ok', role: 'status' }, saved.value) : null,
          h('div', { class: 'budget-spend', 'data-testid': 'budget-deployment-used' }, [
            h('h3', tb('budget-page.deployment')),
            budgetBar(
              current.deployment.used,
              current.deployment.limit,
              current.warnAt,
              format,
              tb('budget-page.deployment'),
            ),
          ]),
          spendTable(
            tb('budget-page.rooms'),
            tb('budget-page.room'),
            current.rooms,
            limitOf('room'),
            current,
            'budget-rooms',
          ),
          spendTable(
            tb('budget-page.people'),
            tb('budget-page.person'),
            current.people,
            limitOf('person'),
            current,
            'budget-people',
          ),
        );
      }
      return consoleSection(
        {
          id: 'admin-budgets',
          testId: 'budgets-section',
          title: tb('budget-page.title'),
          actions: [
            h('button', { type: 'button', class: 'button', onClick: () => void load() }, tb('budget-page.refresh')),
          ],
        },
        body,
      );
    };
  },
});
