// The admin area's 平台/Platforms section: each platform adapter's live state (connected; reconnecting with the next
// attempt's time; refused naming the key to fix; stopped) and each MCP server's, refreshed while shown, with forms
// for the Telegram and OneBot connections and the MCP servers, saved through the configuration (applied live).
import type { PlatformStateView } from '@aalis/session-client';
import { defineComponent, h, onMounted, onUnmounted, reactive, type VNode } from 'vue';
import { tm } from '../console-models-texts.js';
import { mcpFormOf, mcpServerOf, PlatformsModel } from '../model/platforms-model.js';
import { preferences, t } from '../page-preferences.js';
import type { TextKey } from '../page-translator.js';
import type { PageTextKey } from '../texts.js';
import { useConsoleModel } from '../use-console-model.js';
import '../console-models.css';
import { codedErrorNodes, errorAlert } from './coded-error.js';
import { consoleProps } from './console-props.js';
import { consoleSection } from './console-section.js';
import { tableHead } from './table-head.js';

/** How often the live states are asked again while the section is shown. */
const REFRESH_MS = 3_000;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export const PlatformsView = defineComponent({
  name: 'PlatformsView',
  props: consoleProps,
  setup(props) {
    const { model, snapshot } = useConsoleModel(props, PlatformsModel, () => fill());
    const telegram = reactive({ token: '', apiRoot: '' });
    const onebot = reactive({ url: '', accessToken: '' });
    const mcp = reactive({ name: '', command: '', url: '' });
    const fill = () => {
      const sections = snapshot.value.sections;
      telegram.token = text(sections.telegram?.values.token);
      telegram.apiRoot = text(sections.telegram?.values.apiRoot);
      onebot.url = text(sections.onebot?.values.url);
      onebot.accessToken = text(sections.onebot?.values.accessToken);
    };
    let timer: ReturnType<typeof setInterval> | undefined;
    onMounted(() => {
      timer = setInterval(() => void model.refresh(), REFRESH_MS);
    });
    onUnmounted(() => clearInterval(timer));

    const time = (at: number) => new Date(at).toLocaleTimeString(preferences.locale);
    const field = (id: string, label: string, value: string, set: (value: string) => void, type = 'text') =>
      h('div', { class: 'setting' }, [
        h('label', { for: id, class: 'setting-label' }, label),
        h('div', { class: 'setting-control' }, [
          h('input', {
            id,
            type,
            value,
            autocomplete: 'off',
            onInput: (event: Event) => set((event.target as HTMLInputElement).value),
          }),
        ]),
      ]);

    const stateRow = (entry: PlatformStateView) =>
      h('tr', { key: entry.id, 'data-status': entry.status, 'data-testid': `platform-${entry.id}` }, [
        h('td', [h('div', entry.id), entry.endpoint ? h('code', { class: 'muted' }, entry.endpoint) : null]),
        h(
          'td',
          { 'data-label': tm('console-models.status') },
          h(
            'span',
            {
              class: [
                'state',
                entry.status === 'connected'
                  ? 'state-active'
                  : entry.status === 'refused'
                    ? 'state-error'
                    : 'state-pending',
              ],
            },
            tm(`console-models.status.${entry.status}` as TextKey<typeof tm>),
          ),
        ),
        h('td', { 'data-label': tm('console-models.detail') }, [
          entry.configKey
            ? h('div', { class: 'setting-error' }, tm('console-models.fixKey', { key: entry.configKey }))
            : null,
          entry.error ? h('div', { class: 'muted' }, codedErrorNodes(entry.error.message, entry.error.code)) : null,
          entry.nextAttemptAt
            ? h('div', { class: 'muted' }, tm('console-models.nextAttempt', { time: time(entry.nextAttemptAt) }))
            : null,
        ]),
      ]);

    /** A platform's form: its fields, saved over the section's other values; the form is filled again once saved. */
    const platformForm = (
      section: 'telegram' | 'onebot',
      values: Record<string, unknown>,
      edited: () => Record<string, unknown>,
      fields: VNode[],
    ) => {
      const { busy, saved } = snapshot.value;
      return h(
        'form',
        {
          class: 'console-card',
          'data-testid': `${section}-form`,
          onSubmit: (event: Event) => {
            event.preventDefault();
            void model.save(section, { ...values, ...edited() }).then((ok) => ok && fill());
          },
        },
        [
          h('h3', tm(`console-models.${section}`)),
          ...fields,
          h('div', { class: 'console-actions' }, [
            h('button', { type: 'submit', class: 'button primary', disabled: busy }, tm('console-models.save')),
          ]),
          saved === section ? h('p', { class: 'console-ok', role: 'status' }, tm('console-models.saved')) : null,
        ],
      );
    };

    return () => {
      const { platforms, mcp: servers, sections, busy, error, saved } = snapshot.value;
      const mcpServers = (sections.mcp?.values.servers ?? {}) as Record<string, unknown>;
      return consoleSection(
        {
          id: 'admin-platforms',
          testId: 'platforms-section',
          title: tm('console-models.platforms'),
          actions: [
            h(
              'button',
              { type: 'button', class: 'button', onClick: () => void model.refresh() },
              tm('console-models.refresh'),
            ),
          ],
        },
        [
          h('p', { class: 'muted' }, tm('console-models.platforms.intro')),
          errorAlert(error),
          platforms.length === 0
            ? h('p', { class: 'muted' }, tm('console-models.platforms.empty'))
            : h('div', { class: 'table-scroll' }, [
                h('table', { class: 'plugins stacked-table', 'data-testid': 'platform-states' }, [
                  tableHead(tm('console-models.platform'), tm('console-models.status'), tm('console-models.detail')),
                  h('tbody', platforms.map(stateRow)),
                ]),
              ]),
          sections.telegram
            ? platformForm(
                'telegram',
                sections.telegram.values,
                () => ({
                  token: telegram.token,
                  ...(telegram.apiRoot.trim() ? { apiRoot: telegram.apiRoot.trim() } : {}),
                }),
                [
                  field(
                    'telegram-token',
                    tm('console-models.telegram.token'),
                    telegram.token,
                    (v) => (telegram.token = v),
                    'password',
                  ),
                  field(
                    'telegram-api-root',
                    tm('console-models.telegram.apiRoot'),
                    telegram.apiRoot,
                    (v) => (telegram.apiRoot = v),
                  ),
                ],
              )
            : null,
          sections.onebot
            ? platformForm(
                'onebot',
                sections.onebot.values,
                () => ({
                  url: onebot.url.trim(),
                  accessToken: onebot.accessToken,
                }),
                [
                  field('onebot-url', tm('console-models.onebot.url'), onebot.url, (v) => (onebot.url = v)),
                  field(
                    'onebot-token',
                    tm('console-models.onebot.accessToken'),
                    onebot.accessToken,
                    (v) => (onebot.accessToken = v),
                    'password',
                  ),
                ],
              )
            : null,
          sections.mcp
            ? h(
                'form',
                {
                  class: 'console-card',
                  'data-testid': 'mcp-form',
                  onSubmit: (event: Event) => {
                    event.preventDefault();
                    const server = mcpServerOf(mcp.command, mcp.url);
                    if (!server || mcp.name.trim() === '') return;
                    const name = mcp.name.trim();
                    const before = mcpServers[name];
                    // An edited server keeps what the form does not show (env, headers, timeouts); its transport is
                    // the one the form says.
                    const kept =
                      before && typeof before === 'object'
                        ? Object.fromEntries(
                            Object.entries(before as Record<string, unknown>).filter(
                              ([key]) => !['command', 'args', 'url'].includes(key),
                            ),
                          )
                        : {};
                    void model
                      .save('mcp', {
                        ...sections.mcp!.values,
                        servers: { ...mcpServers, [name]: { ...kept, ...server } },
                      })
                      .then((ok) => {
                        if (ok) Object.assign(mcp, { name: '', command: '', url: '' });
                      });
                  },
                },
                [
                  h('h3', tm('console-models.mcp')),
                  h(
                    'ul',
                    { class: 'console-list', 'data-testid': 'mcp-list' },
                    Object.keys(mcpServers).map((name) => {
                      const live = servers.find((server) => server.name === name);
                      return h('li', { key: name }, [
                        h('code', name),
                        ' ',
                        live
                          ? h(
                              'span',
                              { class: ['state', live.status === 'connected' ? 'state-active' : 'state-pending'] },
                              t(`webui-page.admin.mcp.status.${live.status}` as PageTextKey),
                            )
                          : null,
                        live
                          ? h(
                              'span',
                              { class: 'muted' },
                              ` ${tm('console-models.mcp.tools', { count: live.tools.length })}`,
                            )
                          : null,
                        live?.error ? h('div', { class: 'setting-error' }, live.error) : null,
                        h(
                          'button',
                          {
                            type: 'button',
                            class: 'button',
                            'aria-label': `${tm('console-models.mcp.edit')}: ${name}`,
                            // Saving under the same name replaces the server's entry (its other keys kept).
                            onClick: () => Object.assign(mcp, { name, ...mcpFormOf(mcpServers[name]) }),
                          },
                          tm('console-models.mcp.edit'),
                        ),
                        h(
                          'button',
                          {
                            type: 'button',
                            class: 'button',
                            disabled: busy,
                            'aria-label': `${tm('console-models.mcp.remove')}: ${name}`,
                            onClick: () => {
                              const { [name]: _removed, ...rest } = mcpServers;
                              void model.save('mcp', { ...sections.mcp!.values, servers: rest });
                            },
                          },
                          tm('console-models.mcp.remove'),
                        ),
                      ]);
                    }),
                  ),
                  field('mcp-name', tm('console-models.mcp.name'), mcp.name, (v) => (mcp.name = v)),
                  field('mcp-command', tm('console-models.mcp.command'), mcp.command, (v) => (mcp.command = v)),
                  field('mcp-url', tm('console-models.mcp.url'), mcp.url, (v) => (mcp.url = v)),
                  h('div', { class: 'console-actions' }, [
                    h(
                      'button',
                      { type: 'submit', class: 'button primary', disabled: busy },
                      tm('console-models.mcp.add'),
                    ),
                  ]),
                  saved === 'mcp' ? h('p', { class: 'console-ok', role: 'status' }, tm('console-models.saved')) : null,
                ],
              )
            : null,
        ],
      );
    };
  },
});
