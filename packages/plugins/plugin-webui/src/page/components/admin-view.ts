// The owner's admin area: plugins with their states, descriptions, on/off switches and settings forms
// (plugin-settings.ts), the MCP servers, service preferences (the default model: the llm service's global
// preference), the console's audit log, and the accounts, usage and logs sections (their own files).
import type { ModelView } from '@aalis/session-client';
import { defineComponent, h, type PropType } from 'vue';
import type { AdminSnapshot } from '../model/app-model.js';
import { t } from '../page-preferences.js';
import type { PageTextKey } from '../texts.js';
import { AccountsSection } from './accounts-section.js';
import { AuditLog } from './audit-log.js';
import { BudgetsSection } from './budgets-section.js';
import { consoleProps } from './console-props.js';
import { LogsSection } from './logs-section.js';
import { ModelsView } from './models-view.js';
import { PersonasView } from './personas-view.js';
import { PlatformsView } from './platforms-view.js';
import { PluginSettings } from './plugin-settings.js';
import { tableHead } from './table-head.js';
import { UsageSection } from './usage-section.js';

export const AdminView = defineComponent({
  name: 'AdminView',
  props: {
    ...consoleProps,
    admin: { type: Object as PropType<AdminSnapshot>, required: true },
    models: { type: Array as PropType<readonly ModelView[]>, required: true },
    onBack: { type: Function as PropType<() => void>, required: true },
    onRefresh: { type: Function as PropType<() => void>, required: true },
    onDefaultModel: { type: Function as PropType<(model: string | null) => void>, required: true },
  },
  setup(props) {
    return () => {
      const { mcp, preferences } = props.admin;
      const current = preferences?.global.llm ?? '';
      return h('main', { id: 'main', class: 'admin', 'data-testid': 'admin', tabindex: -1 }, [
        h('div', { class: 'admin-head' }, [
          h('h1', t('webui-page.admin')),
          h('button', { type: 'button', class: 'button', onClick: () => props.onBack() }, t('webui-page.admin.back')),
        ]),
        h(ModelsView, { client: props.client, describeError: props.describeError, onChanged: () => props.onRefresh() }),
        h(PlatformsView, { client: props.client, describeError: props.describeError }),
        h(PersonasView, { client: props.client, describeError: props.describeError }),
        h(PluginSettings, { client: props.client, describeError: props.describeError }),
        mcp.length > 0
          ? h('section', { 'aria-labelledby': 'admin-mcp' }, [
              h('h2', { id: 'admin-mcp' }, t('webui-page.admin.mcp')),
              h('table', { class: 'plugins', 'data-testid': 'mcp-servers' }, [
                tableHead(t('webui-page.admin.mcp.server'), t('webui-page.admin.state'), t('webui-page.admin.detail')),
                h(
                  'tbody',
                  mcp.map((server) =>
                    h('tr', { key: server.name, 'data-state': server.status }, [
                      h('td', [h('div', server.name), h('code', { class: 'muted' }, server.transport)]),
                      h(
                        'td',
                        h(
                          'span',
                          { class: ['state', `state-${server.status === 'connected' ? 'active' : 'pending'}`] },
                          t(`webui-page.admin.mcp.status.${server.status}` as PageTextKey),
                        ),
                      ),
                      h('td', [
                        h('div', t('webui-page.admin.mcp.tools', { count: server.tools.length })),
                        server.restarts > 0
                          ? h('div', { class: 'muted' }, t('webui-page.admin.mcp.restarts', { count: server.restarts }))
                          : null,
                        server.error ? h('div', { class: 'setting-error' }, server.error) : null,
                      ]),
                    ]),
                  ),
                ),
              ]),
            ])
          : null,
        h('section', { 'aria-labelledby': 'admin-preferences' }, [
          h('h2', { id: 'admin-preferences' }, t('webui-page.admin.preferences')),
          h('div', { class: 'setting' }, [
            h('label', { for: 'default-model', class: 'setting-label' }, t('webui-page.admin.defaultModel')),
            h(
              'select',
              {
                id: 'default-model',
                value: current,
                'data-testid': 'default-model',
                onChange: (event: Event) => {
                  const value = (event.target as HTMLSelectElement).value;
                  props.onDefaultModel(value === '' ? null : value);
                },
              },
              [
                h('option', { value: '' }, t('webui-page.admin.noPreference')),
                ...props.models.map((model) =>
                  h('option', { key: model.id, value: model.id }, `${model.name} (${model.id})`),
                ),
                current !== '' && !props.models.some((model) => model.id === current)
                  ? h('option', { value: current }, current)
                  : null,
              ],
            ),
            preferences?.defaultModel
              ? h(
                  'p',
                  { class: 'setting-note', 'data-testid': 'default-model-now' },
                  t('webui-page.admin.defaultModelNow', { name: preferences.defaultModel.name }),
                )
              : null,
          ]),
        ]),
        h(AuditLog, { client: props.client, describeError: props.describeError }),
        h(AccountsSection, { client: props.client, describeError: props.describeError }),
        h(UsageSection, { client: props.client, describeError: props.describeError }),
        h(BudgetsSection, { client: props.client, describeError: props.describeError }),
        h(LogsSection, { client: props.client, describeError: props.describeError }),
      ]);
    };
  },
});
