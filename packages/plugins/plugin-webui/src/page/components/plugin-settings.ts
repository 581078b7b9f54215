// The admin area's plugin list: every plugin with its state and what it is for, an on/off switch (启用/停用), and
// for a plugin with a schema its settings form (plugin-settings-form.ts). Saving applies live on the server; the
// result — running, waiting, or the coded error with the previous settings kept — is said under the form.
import type { PluginView } from '@aalis/session-client';
import { defineComponent, h, onBeforeUnmount, onMounted, ref } from 'vue';
import { tc } from '../console-texts.js';
import { t } from '../page-preferences.js';
import { ti } from '../plugin-install-texts.js';
import { consoleProps } from './console-props.js';
import { icon } from './icons.js';
import { PluginInstall } from './plugin-install.js';
import { PluginSettingsForm, stateSentence } from './plugin-settings-form.js';
import { stateText } from './state-text.js';

export const PluginSettings = defineComponent({
  name: 'PluginSettings',
  props: consoleProps,
  setup(props) {
    const plugins = ref<PluginView[]>([]);
    const open = ref<string | undefined>();
    const busy = ref<string | undefined>();
    const notice = ref<{ text: string; error: boolean } | undefined>();

    const load = async () => {
      try {
        plugins.value = (await props.client.request('admin.plugins', {})).plugins;
      } catch (error) {
        notice.value = { text: props.describeError(error), error: true };
      }
    };
    let off: (() => void) | undefined;
    onMounted(() => {
      void load();
      // A plugin that changes state (started, stopped, failed) is updated in place; its console fields stay.
      off = props.client.on('admin', (frame) => {
        if (frame.change !== 'plugin') return;
        plugins.value = plugins.value.map((plugin) =>
          plugin.id === frame.plugin.id
            ? { ...plugin, state: frame.plugin.state, missing: frame.plugin.missing, error: frame.plugin.error }
            : plugin,
        );
      });
    });
    onBeforeUnmount(() => off?.());

    const toggle = async (plugin: PluginView) => {
      busy.value = plugin.id;
      notice.value = undefined;
      try {
        const type = plugin.enabled === false ? 'admin.plugins.enable' : 'admin.plugins.disable';
        const result = await props.client.request(type, { plugin: plugin.id });
        notice.value = {
          text: tc('webui-console.switched', { plugin: plugin.name, state: stateSentence(result.plugin) }),
          error: false,
        };
        if (open.value === plugin.id && type === 'admin.plugins.disable') open.value = undefined;
      } catch (error) {
        notice.value = { text: props.describeError(error), error: true };
      } finally {
        busy.value = undefined;
        await load();
      }
    };

    // Removing runs as an operation; its progress and outcome show in the section below (plugin-install.ts).
    const remove = async (plugin: PluginView) => {
      busy.value = plugin.id;
      notice.value = undefined;
      try {
        await props.client.request('admin.plugins.remove', { name: plugin.name });
      } catch (error) {
        notice.value = { text: props.describeError(error), error: true };
      } finally {
        busy.value = undefined;
      }
    };

    const row = (plugin: PluginView) => {
      const expanded = open.value === plugin.id;
      const formId = `plugin-form-${plugin.id.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
      return [
        h('tr', { key: plugin.id, 'data-state': plugin.state, 'data-plugin': plugin.id }, [
          h('td', { class: 'plugin-name' }, [
            h('div', plugin.name),
            plugin.id !== plugin.name ? h('code', { class: 'muted' }, plugin.id) : null,
          ]),
          h('td', [
            h('span', { class: ['state', `state-${plugin.state}`] }, stateText(plugin.state)),
            plugin.missing.length > 0
              ? h('div', { class: 'muted' }, t('webui-page.admin.waitsFor', { services: plugin.missing.join(', ') }))
              : null,
            plugin.error ? h('div', { class: 'setting-error' }, plugin.error) : null,
          ]),
          h('td', { class: 'plugin-description' }, plugin.description ?? ''),
          h(
            'td',
            h('div', { class: 'plugin-actions' }, [
              plugin.configurable
                ? h(
                    'button',
                    {
                      type: 'button',
                      class: 'button',
                      'aria-expanded': String(expanded),
                      'aria-controls': formId,
                      onClick: () => {
                        open.value = expanded ? undefined : plugin.id;
                      },
                    },
                    expanded ? tc('webui-console.close') : tc('webui-console.settings'),
                  )
                : null,
              plugin.canDisable
                ? h(
                    'button',
                    {
                      type: 'button',
                      class: ['button', plugin.enabled === false ? 'primary' : ''],
                      disabled: busy.value === plugin.id,
                      'data-testid': 'plugin-switch',
                      onClick: () => void toggle(plugin),
                    },
                    plugin.enabled === false ? tc('webui-console.enable') : tc('webui-console.disable'),
                  )
                : null,
              plugin.removable
                ? h(
                    'button',
                    {
                      type: 'button',
                      class: 'button',
                      disabled: busy.value === plugin.id,
                      'data-testid': 'plugin-remove',
                      onClick: () => void remove(plugin),
                    },
                    ti('webui-install.remove'),
                  )
                : null,
            ]),
          ),
        ]),
        expanded
          ? h('tr', { key: `${plugin.id}-form`, class: 'plugin-form-row' }, [
              h(
                'td',
                { colspan: 4, id: formId },
                h(PluginSettingsForm, {
                  client: props.client,
                  plugin,
                  describeError: props.describeError,
                  onSaved: () => void load(),
                }),
              ),
            ])
          : null,
      ];
    };

    return () =>
      h('section', { 'aria-labelledby': 'admin-plugins', 'data-testid': 'plugin-settings' }, [
        h('div', { class: 'section-head' }, [
          h('h2', { id: 'admin-plugins' }, t('webui-page.admin.plugins')),
          h(
            'button',
            {
              type: 'button',
              class: 'icon-button',
              'aria-label': t('webui-page.admin.refresh'),
              title: t('webui-page.admin.refresh'),
              onClick: () => void load(),
            },
            icon('refresh'),
          ),
        ]),
        notice.value
          ? h(
              'p',
              {
                class: notice.value.error ? 'setting-error' : 'setting-note',
                role: notice.value.error ? 'alert' : 'status',
              },
              notice.value.text,
            )
          : null,
        h('table', { class: 'plugins console-plugins', 'data-testid': 'plugins' }, [
          h(
            'thead',
            h('tr', [
              h('th', t('webui-page.admin.plugin')),
              h('th', t('webui-page.admin.state')),
              h('th', tc('webui-console.plugins.description')),
              h('th', tc('webui-console.plugins.actions')),
            ]),
          ),
          h('tbody', plugins.value.flatMap(row)),
        ]),
        h(PluginInstall, { client: props.client, describeError: props.describeError, onChanged: () => void load() }),
      ]);
  },
});
