// The owner's 日志/Logs section: records filtered by level, plugin, session id and turn id within a time range
// (logs.query), followed live with the same filter (logs.subscribe), and the shown range downloaded as a text
// file in the file log's line format.
import type { LogFilter, LogView } from '@aalis/session-client';
import { defineComponent, h, nextTick, onMounted, onUnmounted, ref } from 'vue';
import { ta } from '../console-accounts-texts.js';
import { logFileName, logText } from '../model/log-lines.js';
import { preferences } from '../page-preferences.js';
import '../console-accounts.css';
import { errorAlert } from './coded-error.js';
import { consoleProps } from './console-props.js';

const LEVELS: LogView['level'][] = ['trace', 'debug', 'info', 'warn', 'error'];
/** Records kept on the page while following. */
const MAX_SHOWN = 2000;
const QUERY_LIMIT = 1000;

/** A datetime-local value (the reader's time) as ms since the epoch; undefined when empty or invalid. */
function timeOf(value: string): number | undefined {
  if (value === '') return undefined;
  const at = new Date(value).getTime();
  return Number.isFinite(at) ? at : undefined;
}

export const LogsSection = defineComponent({
  name: 'LogsSection',
  props: consoleProps,
  setup(props) {
    const level = ref<LogView['level']>('info');
    const plugin = ref('');
    const sessionId = ref('');
    const turnId = ref('');
    const from = ref('');
    const to = ref('');
    const follow = ref(true);
    const records = ref<LogView[]>([]);
    const truncated = ref(false);
    const oldest = ref<number | undefined>();
    const problem = ref<string | undefined>();
    const box = ref<HTMLElement | null>(null);

    const filter = (): LogFilter => ({
      level: level.value,
      ...(plugin.value.trim() ? { plugin: plugin.value.trim() } : {}),
      ...(sessionId.value.trim() ? { sessionId: sessionId.value.trim() } : {}),
      ...(turnId.value.trim() ? { turnId: turnId.value.trim() } : {}),
    });
    const toBottom = () =>
      void nextTick().then(() => {
        if (box.value) box.value.scrollTop = box.value.scrollHeight;
      });
    const query = async () => {
      problem.value = undefined;
      try {
        const start = timeOf(from.value);
        const end = timeOf(to.value);
        const result = await props.client.request('logs.query', {
          ...filter(),
          ...(start !== undefined ? { from: start } : {}),
          ...(end !== undefined ? { to: end } : {}),
          limit: QUERY_LIMIT,
        });
        records.value = result.records;
        truncated.value = result.truncated;
        oldest.value = result.oldest;
        // Following makes sense only up to now: a range that ends earlier stops it.
        if (end !== undefined) follow.value = false;
        await (follow.value
          ? props.client.request('logs.subscribe', filter())
          : props.client.request('logs.unsubscribe', {}));
        toBottom();
      } catch (error) {
        problem.value = props.describeError(error);
      }
    };
    let off: (() => void) | undefined;
    onMounted(() => {
      off = props.client.on('log', (record) => {
        if (!follow.value) return;
        records.value = [...records.value.slice(-(MAX_SHOWN - 1)), record];
        toBottom();
      });
      void query();
    });
    onUnmounted(() => off?.());
    const download = () => {
      const url = URL.createObjectURL(new Blob([logText(records.value)], { type: 'text/plain;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = logFileName(
        records.value[0]?.time ?? timeOf(from.value),
        records.value.at(-1)?.time ?? Date.now(),
      );
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    };
    const text = (id: string, label: string, value: typeof plugin, extra: Record<string, unknown> = {}) =>
      h('div', { class: 'filter-field' }, [
        h('label', { for: id }, label),
        h('input', {
          id,
          value: value.value,
          onInput: (event: Event) => (value.value = (event.target as HTMLInputElement).value),
          ...extra,
        }),
      ]);

    return () =>
      h(
        'section',
        { class: 'console-section logs-page', 'aria-labelledby': 'logs-title', 'data-testid': 'logs-section' },
        [
          h('h2', { id: 'logs-title' }, ta('webui-page.logs')),
          h(
            'form',
            {
              class: 'filters log-filters',
              onSubmit: (event: Event) => {
                event.preventDefault();
                void query();
              },
            },
            [
              h('div', { class: 'filter-field' }, [
                h('label', { for: 'logs-level' }, ta('webui-page.logs.level')),
                h(
                  'select',
                  {
                    id: 'logs-level',
                    value: level.value,
                    onChange: (event: Event) => {
                      level.value = (event.target as HTMLSelectElement).value as LogView['level'];
                      void query();
                    },
                  },
                  LEVELS.map((value) => h('option', { value }, value)),
                ),
              ]),
              text('logs-plugin', ta('webui-page.logs.plugin'), plugin, { placeholder: 'plugin-agent' }),
              text('logs-session', ta('webui-page.logs.session'), sessionId),
              text('logs-turn', ta('webui-page.logs.turn'), turnId),
              text('logs-from', ta('webui-page.logs.from'), from, { type: 'datetime-local', step: 1 }),
              text('logs-to', ta('webui-page.logs.to'), to, { type: 'datetime-local', step: 1 }),
              h('label', { class: 'checkbox' }, [
                h('input', {
                  type: 'checkbox',
                  checked: follow.value,
                  onChange: (event: Event) => {
                    follow.value = (event.target as HTMLInputElement).checked;
                    if (follow.value) to.value = '';
                    void query();
                  },
                }),
                ta('webui-page.logs.follow'),
              ]),
              h('button', { type: 'submit', class: 'button primary' }, ta('webui-page.logs.apply')),
              h(
                'button',
                { type: 'button', class: 'button', disabled: records.value.length === 0, onClick: download },
                ta('webui-page.logs.download'),
              ),
            ],
          ),
          errorAlert(problem.value),
          truncated.value ? h('p', { class: 'muted' }, ta('webui-page.logs.truncated', { count: QUERY_LIMIT })) : null,
          oldest.value !== undefined
            ? h(
                'p',
                { class: 'muted' },
                ta('webui-page.logs.kept', { time: new Date(oldest.value).toLocaleString(preferences.locale) }),
              )
            : null,
          h(
            'div',
            { ref: box, class: 'logs', role: 'log', 'aria-live': 'polite', tabindex: 0, 'data-testid': 'logs' },
            records.value.length === 0
              ? h('p', { class: 'placeholder' }, ta('webui-page.logs.empty'))
              : records.value.map((record, index) =>
                  h('div', { key: `${record.time}-${index}`, class: ['log', `log-${record.level}`] }, [
                    h('time', new Date(record.time).toLocaleTimeString(preferences.locale)),
                    h('span', { class: 'log-level' }, record.level),
                    h('span', { class: 'log-name' }, record.name),
                    h('span', { class: 'log-message' }, record.message),
                    record.fields && Object.keys(record.fields).length > 0
                      ? h('code', { class: 'log-fields' }, JSON.stringify(record.fields))
                      : null,
                  ]),
                ),
          ),
        ],
      );
  },
});
