// The console's audit log (审计): every change made through the console, newest first — when, who, what, which key,
// the old and the new value (secrets only as the mask) — with older entries on request.
import type { AuditEntryView } from '@aalis/session-client';
import { defineComponent, h, onMounted, ref } from 'vue';
import { tc } from '../console-texts.js';
import { preferences } from '../page-preferences.js';
import { errorAlert } from './coded-error.js';
import { consoleProps } from './console-props.js';
import { tableHead } from './table-head.js';

const PAGE = 50;

function shown(value: unknown, present: boolean): string {
  if (!present) return tc('webui-console.audit.absent');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export const AuditLog = defineComponent({
  name: 'AuditLog',
  props: consoleProps,
  setup(props, { expose }) {
    const entries = ref<AuditEntryView[]>([]);
    const more = ref(false);
    const problem = ref<string | undefined>();
    const load = async (older = false) => {
      try {
        const before = older ? entries.value.at(-1)?.id : undefined;
        const page = await props.client.request('admin.audit.list', { limit: PAGE, ...(before ? { before } : {}) });
        entries.value = older ? [...entries.value, ...page.entries] : page.entries;
        more.value = page.more;
        problem.value = undefined;
      } catch (error) {
        problem.value = props.describeError(error);
      }
    };
    onMounted(() => void load());
    expose({ reload: () => load() });
    return () =>
      h('section', { 'aria-labelledby': 'admin-audit', 'data-testid': 'audit-log' }, [
        h('div', { class: 'section-head' }, [h('h2', { id: 'admin-audit' }, tc('webui-console.audit'))]),
        errorAlert(problem.value),
        entries.value.length === 0
          ? h('p', { class: 'placeholder' }, tc('webui-console.audit.empty'))
          : h('table', { class: 'plugins audit stacked-table' }, [
              tableHead(
                tc('webui-console.audit.time'),
                tc('webui-console.audit.actor'),
                tc('webui-console.audit.action'),
                tc('webui-console.audit.key'),
                tc('webui-console.audit.old'),
                tc('webui-console.audit.new'),
              ),
              h(
                'tbody',
                entries.value.map((entry) =>
                  h('tr', { key: entry.id }, [
                    h(
                      'td',
                      h(
                        'time',
                        { datetime: new Date(entry.at).toISOString() },
                        new Date(entry.at).toLocaleString(preferences.locale),
                      ),
                    ),
                    h('td', { 'data-label': tc('webui-console.audit.actor') }, entry.actor.userId),
                    h('td', { 'data-label': tc('webui-console.audit.action') }, h('code', entry.action)),
                    h('td', { 'data-label': tc('webui-console.audit.key') }, h('code', entry.key)),
                    h(
                      'td',
                      { class: 'audit-value', 'data-label': tc('webui-console.audit.old') },
                      shown(entry.old, 'old' in entry),
                    ),
                    h(
                      'td',
                      { class: 'audit-value', 'data-label': tc('webui-console.audit.new') },
                      shown(entry.new, 'new' in entry),
                    ),
                  ]),
                ),
              ),
            ]),
        more.value
          ? h(
              'button',
              { type: 'button', class: 'button', onClick: () => void load(true) },
              tc('webui-console.audit.more'),
            )
          : null,
      ]);
  },
});
