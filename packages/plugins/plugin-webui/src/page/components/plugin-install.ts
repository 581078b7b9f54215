// The console's plugins from the registry, under the plugin list: the 添加插件/Add plugin form (an npm name) and the
// operation that runs — an add, or a remove started by a plugin row's 移除/Remove (plugin-settings.ts) — with npm's
// phases as they come (admin frames, change `install`), then its outcome: running now, or the coded reason with the
// deployment unchanged. One operation at a time: the form waits while one runs.
import type { PluginInstallView } from '@aalis/session-client';
import { defineComponent, h, onBeforeUnmount, onMounted, type PropType, ref } from 'vue';
import { operationTitle, outcomeLine, phaseSentence, progressShare, sentenceGap } from '../model/plugin-install.js';
import { ti } from '../plugin-install-texts.js';
import { codedErrorNodes } from './coded-error.js';
import '../plugin-install.css';
import { consoleProps } from './console-props.js';

export const PluginInstall = defineComponent({
  name: 'PluginInstall',
  props: {
    ...consoleProps,
    /** A plugin was added or removed: the plugin list above reads itself again. */
    onChanged: { type: Function as PropType<() => void>, required: true },
  },
  setup(props) {
    const available = ref(true);
    const unavailable = ref<{ code: string; message: string } | undefined>();
    const operation = ref<PluginInstallView | undefined>();
    const spec = ref('');
    const refusal = ref<string | undefined>();

    const load = async () => {
      try {
        const result = await props.client.request('admin.plugins.installed', {});
        available.value = result.available;
        unavailable.value = result.unavailable;
        if (result.operation && (!operation.value || operation.value.id === result.operation.id)) {
          operation.value = result.operation;
        }
      } catch (error) {
        refusal.value = props.describeError(error);
      }
    };

    let off: (() => void) | undefined;
    onMounted(() => {
      void load();
      off = props.client.on('admin', (frame) => {
        if (frame.change !== 'install') return;
        operation.value = frame.operation;
        if (frame.operation.phase === 'finished') {
          void load();
          if (frame.operation.state === 'done') props.onChanged();
        }
      });
    });
    onBeforeUnmount(() => off?.());

    const running = () => operation.value?.state === 'running';

    const start = async (request: () => Promise<{ operation: PluginInstallView }>) => {
      refusal.value = undefined;
      try {
        const { operation: started } = await request();
        // A frame of it may already have come: keep whichever is further along.
        if (operation.value?.id !== started.id) operation.value = started;
      } catch (error) {
        refusal.value = props.describeError(error);
      }
    };

    const add = (event: Event) => {
      event.preventDefault();
      const wanted = spec.value.trim();
      if (wanted === '' || running()) return;
      void start(() => props.client.request('admin.plugins.add', { spec: wanted })).then(() => {
        if (!refusal.value) spec.value = '';
      });
    };

    const progress = (current: PluginInstallView) => {
      const share = progressShare(current);
      const outcome = outcomeLine(current);
      return h(
        'div',
        {
          class: ['install-operation', outcome ? `install-${outcome.tone}` : 'install-running'],
          'data-testid': 'install-operation',
          'data-state': current.state,
          'data-phase': current.phase,
        },
        [
          current.state === 'running' ? h('div', { class: 'install-title' }, operationTitle(current)) : null,
          current.state === 'running'
            ? [
                h('progress', {
                  class: 'install-progress',
                  max: 1,
                  ...(share === undefined ? {} : { value: share }),
                  'aria-label': operationTitle(current),
                }),
                h(
                  'p',
                  { class: 'setting-note', role: 'status', 'data-testid': 'install-phase' },
                  phaseSentence(current),
                ),
              ]
            : null,
          outcome
            ? h(
                'p',
                {
                  class: outcome.tone === 'error' ? 'setting-error' : 'setting-note',
                  role: outcome.tone === 'error' ? 'alert' : 'status',
                  'data-testid': 'install-outcome',
                },
                [
                  outcome.text,
                  outcome.error
                    ? h('span', { class: 'install-reason' }, [
                        sentenceGap(),
                        outcome.tone === 'ok' ? ti('webui-install.notStarted') : '',
                        ...codedErrorNodes(outcome.error.message, outcome.error.code),
                      ])
                    : null,
                ],
              )
            : null,
        ],
      );
    };

    return () =>
      h(
        'section',
        { class: 'plugin-install', 'aria-labelledby': 'plugin-install-title', 'data-testid': 'plugin-install' },
        [
          h('h3', { id: 'plugin-install-title' }, ti('webui-install.title')),
          h('p', { class: 'muted' }, ti('webui-install.intro')),
          available.value
            ? null
            : h('p', { class: 'setting-note', 'data-testid': 'install-unavailable' }, [
                ti('webui-install.unavailable'),
                ...(unavailable.value ? codedErrorNodes(unavailable.value.message, unavailable.value.code) : []),
              ]),
          h('form', { class: 'install-form', 'aria-label': ti('webui-install.add'), onSubmit: add }, [
            h('label', { for: 'install-spec' }, ti('webui-install.spec')),
            h('div', { class: 'install-row' }, [
              h('input', {
                id: 'install-spec',
                value: spec.value,
                placeholder: ti('webui-install.placeholder'),
                autocomplete: 'off',
                spellcheck: 'false',
                maxlength: 1000,
                disabled: !available.value,
                onInput: (event: Event) => {
                  spec.value = (event.target as HTMLInputElement).value;
                },
              }),
              h(
                'button',
                {
                  type: 'submit',
                  class: 'button primary',
                  disabled: !available.value || running() || spec.value.trim() === '',
                },
                ti('webui-install.add'),
              ),
            ]),
          ]),
          refusal.value
            ? h('p', { class: 'setting-error', role: 'alert', 'data-testid': 'install-refusal' }, refusal.value)
            : null,
          operation.value ? progress(operation.value) : null,
        ],
      );
  },
});
