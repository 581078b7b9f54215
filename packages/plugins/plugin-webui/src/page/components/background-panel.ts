// The 「后台」 tab: the session's subtasks and scheduled tasks (running and scheduled first) with status, tokens,
// cost and a stop button each, and 「全部停止」. Refreshed while the tab is open.
import type { BackgroundTaskView } from '@aalis/session-client';
import { defineComponent, h, onMounted, onUnmounted, type PropType, ref } from 'vue';
import { preferences, t } from '../page-preferences.js';
import type { PageTextKey } from '../texts.js';

const REFRESH_MS = 2000;

export interface BackgroundActions {
  list(): Promise<BackgroundTaskView[]>;
  stop(taskId: string): Promise<unknown>;
  stopAll(): Promise<unknown>;
}

const statusKey = (status: BackgroundTaskView['status']) => `webui-page.background.status.${status}` as PageTextKey;
const kindKey = (kind: string): PageTextKey | undefined =>
  kind === 'subtask' || kind === 'schedule' ? (`webui-page.background.kind.${kind}` as PageTextKey) : undefined;

export const BackgroundPanel = defineComponent({
  name: 'BackgroundPanel',
  props: { actions: { type: Object as PropType<BackgroundActions>, required: true } },
  setup(props) {
    const tasks = ref<BackgroundTaskView[]>([]);
    const loaded = ref(false);
    const error = ref<string | undefined>();
    let timer: ReturnType<typeof setInterval> | undefined;
    const refresh = async () => {
      try {
        tasks.value = await props.actions.list();
        error.value = undefined;
      } catch (failure) {
        error.value = failure instanceof Error ? failure.message : String(failure);
      } finally {
        loaded.value = true;
      }
    };
    const act = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (failure) {
        error.value = failure instanceof Error ? failure.message : String(failure);
      }
      await refresh();
    };
    onMounted(() => {
      void refresh();
      timer = setInterval(() => void refresh(), REFRESH_MS);
    });
    onUnmounted(() => clearInterval(timer));
    const row = (task: BackgroundTaskView) => {
      const kind = kindKey(task.kind);
      const figures = [
        task.tokens !== undefined
          ? t('webui-page.background.tokens', { tokens: task.tokens.toLocaleString(preferences.locale) })
          : '',
        task.cost !== undefined ? `${task.cost.toFixed(4)}${task.currency ? ` ${task.currency}` : ''}` : '',
        task.nextAt !== undefined
          ? // In the page's language, as every other time it shows (not the browser's).
            t('webui-page.background.next', { time: new Date(task.nextAt).toLocaleString(preferences.locale) })
          : '',
      ].filter((text) => text !== '');
      return h(
        'li',
        {
          class: ['background-task', `status-${task.status}`],
          key: task.id,
          'data-testid': 'background-task',
          'data-task-id': task.id,
          'data-status': task.status,
        },
        [
          h('div', { class: 'background-head' }, [
            h('span', { class: 'badge' }, kind ? t(kind) : task.kind),
            h('span', { class: 'background-status', 'data-testid': 'background-status' }, t(statusKey(task.status))),
            task.stoppable
              ? h(
                  'button',
                  {
                    type: 'button',
                    class: 'button',
                    'data-testid': 'background-stop',
                    'aria-label': `${t('webui-page.background.stop')}: ${task.title}`,
                    onClick: () => void act(() => props.actions.stop(task.id)),
                  },
                  t('webui-page.background.stop'),
                )
              : null,
          ]),
          h('p', { class: 'background-title' }, task.title),
          figures.length > 0 ? h('p', { class: 'muted' }, figures.join(' · ')) : null,
          task.summary ? h('p', { class: 'muted background-summary' }, task.summary) : null,
        ],
      );
    };
    return () => {
      const running = tasks.value.some((task) => task.status === 'running');
      return h('div', { class: 'background', 'data-testid': 'background-panel' }, [
        h('div', { class: 'panel-actions' }, [
          h(
            'button',
            {
              type: 'button',
              class: 'button danger',
              disabled: !running,
              'data-testid': 'background-stop-all',
              onClick: () => void act(() => props.actions.stopAll()),
            },
            t('webui-page.background.stopAll'),
          ),
        ]),
        error.value ? h('p', { class: 'setting-error', role: 'alert' }, error.value) : null,
        loaded.value && tasks.value.length === 0
          ? h('p', { class: 'placeholder' }, t('webui-page.background.empty'))
          : h('ul', { class: 'background-list plain-list' }, tasks.value.map(row)),
      ]);
    };
  },
});
