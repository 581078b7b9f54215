// The session panel's budget lines: what counts for this chat (everyone this month, this chat today, you today in
// your own chats), each used against its limit. Shown when a budget plugin runs; loaded when the panel opens.
import type { ResultOf } from '@aalis/session-client';
import { defineComponent, h, onMounted, type PropType, ref, watch } from 'vue';
import { tb } from '../budget-texts.js';
import type { TextKey } from '../page-translator.js';
import { budgetBar, formatOf } from './budgets-section.js';

export const SessionBudget = defineComponent({
  name: 'SessionBudget',
  props: {
    load: { type: Function as PropType<() => Promise<ResultOf<'session.budget'>>>, required: true },
    /** Changes after each model call of the session (its usage entry): the lines are asked for again. */
    refresh: { type: null as unknown as PropType<unknown>, required: false },
  },
  setup(props) {
    const budget = ref<ResultOf<'session.budget'> | undefined>();
    const load = () =>
      props.load().then(
        (result) => {
          budget.value = result;
        },
        // The panel works without it: an account that cannot see budgets just has no such lines.
        () => undefined,
      );
    onMounted(() => void load());
    watch(
      () => props.refresh,
      () => void load(),
    );
    return () => {
      const current = budget.value;
      if (!current?.enabled || current.lines.length === 0) return null;
      const format = formatOf({ unit: current.unit ?? 'tokens', currency: current.currency ?? '' });
      return h('details', { class: 'settings-group', open: true, 'data-testid': 'session-budget' }, [
        h('summary', tb('budget-page.session')),
        h(
          'ul',
          { class: 'budget-lines plain-list' },
          current.lines.map((line) => {
            const label = tb(`budget-page.session.${line.kind}` as TextKey<typeof tb>);
            return h('li', { key: line.kind }, [
              h('span', { class: 'setting-label' }, tb('budget-page.session.line', { label, period: line.period })),
              budgetBar(line.used, line.limit, current.warnAt ?? 0.8, format, label),
            ]);
          }),
        ),
      ]);
    };
  },
});
