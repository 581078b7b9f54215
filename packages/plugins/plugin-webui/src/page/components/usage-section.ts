// The owner's 用量/Usage section: the last 7/30/90 days of model calls (admin.usage) as two charts per day (tokens
// stacked as uncached prompt, cached prompt and completion; cost), the total with the cached share and cost, a
// table grouped by day, model, account, session or platform, and a CSV export of that table.
import type { UsageGroupBy, UsageReport } from '@aalis/session-client';
import { defineComponent, h, onMounted, ref } from 'vue';
import { ta } from '../console-accounts-texts.js';
import {
  type ChartBar,
  cachedShare,
  costBars,
  costText,
  percentText,
  tokenBars,
  usageCsv,
} from '../model/usage-report-view.js';
import { preferences } from '../page-preferences.js';
import type { TextKey } from '../page-translator.js';
import '../console-accounts.css';
import { errorAlert } from './coded-error.js';
import { consoleProps } from './console-props.js';
import { consoleSection } from './console-section.js';
import { tableHead } from './table-head.js';

const GROUPS: UsageGroupBy[] = ['day', 'model', 'account', 'session', 'platform'];
const PERIODS = [7, 30, 90];
const CHART_WIDTH = 600;
const TOKEN_HEIGHT = 140;
const COST_HEIGHT = 70;

function chart(bars: ChartBar[], height: number, label: string, testId: string) {
  return h(
    'svg',
    {
      class: 'usage-chart',
      role: 'img',
      'aria-label': label,
      'data-testid': testId,
      viewBox: `0 0 ${CHART_WIDTH} ${height}`,
      preserveAspectRatio: 'none',
    },
    bars.flatMap((bar) =>
      bar.segments
        .filter((segment) => segment.height > 0)
        .map((segment) =>
          h(
            'rect',
            {
              key: `${bar.key}-${segment.part}`,
              class: `usage-chart-${segment.part}`,
              x: bar.x,
              y: segment.y,
              width: bar.width,
              height: segment.height,
            },
            h('title', `${bar.key}: ${segment.part === 'cost' ? segment.value.toFixed(4) : segment.value}`),
          ),
        ),
    ),
  );
}

function download(filename: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const UsageSection = defineComponent({
  name: 'UsageSection',
  props: consoleProps,
  setup(props) {
    const days = ref(30);
    const groupBy = ref<UsageGroupBy>('day');
    const report = ref<UsageReport | undefined>();
    const problem = ref<string | undefined>();
    const load = async () => {
      problem.value = undefined;
      try {
        report.value = await props.client.request('admin.usage', {
          days: days.value,
          groupBy: groupBy.value,
          utcOffsetMinutes: -new Date().getTimezoneOffset(),
        });
      } catch (error) {
        problem.value = props.describeError(error);
      }
    };
    onMounted(() => void load());
    const number = (value: number) => value.toLocaleString(preferences.locale);
    const keyText = (key: string) => (key === '' ? ta('webui-page.usage.noAccount') : key);
    const exportCsv = () => {
      const current = report.value;
      if (!current) return;
      const csv = usageCsv(
        { ...current, rows: current.rows.map((row) => ({ ...row, key: keyText(row.key) })) },
        {
          key: ta(`webui-page.usage.group.${current.groupBy}`),
          calls: ta('webui-page.usage.calls'),
          prompt: ta('webui-page.usage.prompt'),
          cached: ta('webui-page.usage.cached'),
          completion: ta('webui-page.usage.completion'),
          cost: ta('webui-page.usage.cost'),
          currency: 'currency',
          unpriced: 'unpriced',
        },
        ta('webui-page.usage.total'),
      );
      const day = new Date().toISOString().slice(0, 10);
      // A byte order mark, so spreadsheet programs read the UTF-8 (Chinese labels) as such.
      download(`aalis-usage-${current.groupBy}-${current.days}d-${day}.csv`, `\uFEFF${csv}`, 'text/csv;charset=utf-8');
    };
    const select = (
      id: string,
      label: string,
      value: string,
      options: [string, string][],
      set: (v: string) => void,
    ) => [
      h('label', { for: id }, label),
      h(
        'select',
        {
          id,
          value,
          onChange: (event: Event) => {
            set((event.target as HTMLSelectElement).value);
            void load();
          },
        },
        options.map(([optionValue, text]) => h('option', { value: optionValue }, text)),
      ),
    ];
    return () => {
      const current = report.value;
      return consoleSection(
        {
          id: 'usage-title',
          testId: 'usage',
          title: ta('webui-page.usage'),
          actions: [
            h('div', { class: 'filters' }, [
              ...select(
                'usage-days',
                ta('webui-page.usage.days'),
                String(days.value),
                PERIODS.map((period) => [String(period), ta('webui-page.usage.lastDays', { days: period })]),
                (value) => (days.value = Number(value)),
              ),
              ...select(
                'usage-group',
                ta('webui-page.usage.groupBy'),
                groupBy.value,
                GROUPS.map((group) => [group, ta(`webui-page.usage.group.${group}` as TextKey<typeof ta>)]),
                (value) => (groupBy.value = value as UsageGroupBy),
              ),
              h(
                'button',
                { type: 'button', class: 'button', disabled: !current, onClick: exportCsv },
                ta('webui-page.usage.export'),
              ),
            ]),
          ],
        },
        [
          errorAlert(problem.value),
          current
            ? [
                h('dl', { class: 'usage-totals', 'data-testid': 'usage-total' }, [
                  h('div', [h('dt', ta('webui-page.usage.calls')), h('dd', number(current.total.calls))]),
                  h('div', [h('dt', ta('webui-page.usage.prompt')), h('dd', number(current.total.promptTokens))]),
                  h('div', [
                    h('dt', ta('webui-page.usage.cachedShare')),
                    h('dd', percentText(cachedShare(current.total))),
                  ]),
                  h('div', [
                    h('dt', ta('webui-page.usage.completion')),
                    h('dd', number(current.total.completionTokens)),
                  ]),
                  h('div', [h('dt', ta('webui-page.usage.cost')), h('dd', costText(current.total))]),
                ]),
                current.total.unpriced > 0
                  ? h('p', { class: 'muted' }, ta('webui-page.usage.unpriced', { count: current.total.unpriced }))
                  : null,
                h('figure', { class: 'usage-charts' }, [
                  chart(
                    tokenBars(current.daily, CHART_WIDTH, TOKEN_HEIGHT),
                    TOKEN_HEIGHT,
                    ta('webui-page.usage.chartTokens'),
                    'usage-chart-tokens',
                  ),
                  chart(
                    costBars(current.daily, CHART_WIDTH, COST_HEIGHT),
                    COST_HEIGHT,
                    ta('webui-page.usage.chartCost'),
                    'usage-chart-cost',
                  ),
                  h('figcaption', { class: 'usage-legend muted' }, [
                    h('span', [h('i', { class: 'swatch usage-chart-prompt' }), ta('webui-page.usage.prompt')]),
                    h('span', [h('i', { class: 'swatch usage-chart-cached' }), ta('webui-page.usage.cached')]),
                    h('span', [h('i', { class: 'swatch usage-chart-completion' }), ta('webui-page.usage.completion')]),
                    h('span', [h('i', { class: 'swatch usage-chart-cost' }), ta('webui-page.usage.cost')]),
                    h('span', `${current.daily[0]?.key ?? ''} – ${current.daily.at(-1)?.key ?? ''}`),
                  ]),
                ]),
                current.rows.length === 0
                  ? h('p', { class: 'placeholder' }, ta('webui-page.usage.empty'))
                  : h('div', { class: 'table-scroll' }, [
                      h('table', { class: 'plugins usage-table', 'data-testid': 'usage-table' }, [
                        tableHead(
                          ta(`webui-page.usage.group.${current.groupBy}` as TextKey<typeof ta>),
                          ta('webui-page.usage.calls'),
                          ta('webui-page.usage.prompt'),
                          ta('webui-page.usage.cachedShare'),
                          ta('webui-page.usage.completion'),
                          ta('webui-page.usage.cost'),
                        ),
                        h(
                          'tbody',
                          current.rows.map((row) =>
                            h('tr', { key: row.key }, [
                              h('td', h('code', keyText(row.key))),
                              h('td', number(row.calls)),
                              h('td', number(row.promptTokens)),
                              h('td', percentText(cachedShare(row))),
                              h('td', number(row.completionTokens)),
                              h('td', costText(row)),
                            ]),
                          ),
                        ),
                      ]),
                    ]),
              ]
            : null,
        ],
      );
    };
  },
});
