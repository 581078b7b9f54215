// The side panel of a session: its settings, generated from the session fields (composer / common / advanced),
// and its usage (the latest `usage` entry: parts as a stacked bar and rows, the context window, cached tokens);
// plus clear and compact.
import type { ModelView, ResultOf } from '@aalis/session-client';
import { defineComponent, h, nextTick, type PropType, ref } from 'vue';
import type { SettingsModel } from '../model/settings-model.js';
import type { UsageView } from '../model/usage-view.js';
import { t } from '../page-preferences.js';
import { useStore } from '../use-store.js';
import { type BackgroundActions, BackgroundPanel } from './background-panel.js';
import { codedErrorNodes } from './coded-error.js';
import { icon } from './icons.js';
import { SessionBudget } from './session-budget.js';
import { renderSettingRow, type SettingActions } from './setting-control.js';
import { renderUsage } from './usage-panel.js';

type Tab = 'settings' | 'usage' | 'background';

export const SidePanel = defineComponent({
  name: 'SidePanel',
  props: {
    settings: { type: Object as PropType<SettingsModel>, required: true },
    usage: { type: Object as PropType<UsageView | undefined>, required: false },
    models: { type: Array as PropType<readonly ModelView[]>, required: true },
    writable: { type: Boolean, required: true },
    onClose: { type: Function as PropType<() => void>, required: true },
    onClear: { type: Function as PropType<() => void>, required: true },
    onCompact: { type: Function as PropType<() => void>, required: true },
    background: { type: Object as PropType<BackgroundActions>, required: false },
    /** The budgets that count for this session (session.budget), when the host has any. */
    budget: { type: Function as PropType<() => Promise<ResultOf<'session.budget'>>>, required: false },
  },
  setup(props) {
    const tab = ref<Tab>('settings');
    const snapshot = useStore(props.settings);
    const actions: SettingActions = {
      set: (key, value) => void props.settings.set(key, value),
      reset: (key) => void props.settings.reset(key),
    };
    // The tabs pattern: arrow keys move between the tabs, Tab leaves them.
    const onTabKey = (event: KeyboardEvent) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      const tabs: Tab[] = props.background ? ['settings', 'usage', 'background'] : ['settings', 'usage'];
      const step = event.key === 'ArrowRight' ? 1 : tabs.length - 1;
      tab.value = tabs[(tabs.indexOf(tab.value) + step) % tabs.length]!;
      void nextTick().then(() => document.getElementById(`tab-${tab.value}`)?.focus());
    };
    const tabButton = (id: Tab, label: string) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `tab-${id}`,
          'aria-selected': tab.value === id ? 'true' : 'false',
          tabindex: tab.value === id ? 0 : -1,
          'aria-controls': `panel-${id}`,
          class: ['tab', tab.value === id ? 'active' : ''],
          'data-testid': `tab-${id}`,
          onClick: () => {
            tab.value = id;
          },
        },
        label,
      );
    return () => {
      const { composer, common, advanced, loaded, error, layers, writeLayer } = snapshot.value;
      // An IM room: choose whether changes go to this session, its venue or its platform.
      const layerPicker =
        layers.length > 1
          ? h('label', { class: 'setting-layer' }, [
              h('span', t('webui-page.settings.writeLayer')),
              h(
                'select',
                {
                  value: writeLayer,
                  'data-testid': 'write-layer',
                  onChange: (event: Event) =>
                    props.settings.setWriteLayer((event.target as HTMLSelectElement).value as typeof writeLayer),
                },
                layers.map((layer) =>
                  h(
                    'option',
                    { value: layer, selected: layer === writeLayer },
                    t(`webui-page.settings.writeLayer.${layer}`),
                  ),
                ),
              ),
            ])
          : null;
      const section = (title: string, rows: typeof common, open = true) =>
        rows.length === 0
          ? null
          : h('details', { class: 'settings-group', open }, [
              h('summary', title),
              ...rows.map((state) => renderSettingRow(state, props.models, actions)),
            ]);
      return h(
        'aside',
        { class: 'side-panel', 'aria-label': t('webui-page.panel.toggle'), 'data-testid': 'side-panel' },
        [
          h('div', { class: 'tabs' }, [
            h('div', { class: 'tab-list', role: 'tablist', onKeydown: onTabKey }, [
              tabButton('settings', t('webui-page.panel.settings')),
              tabButton('usage', t('webui-page.panel.usage')),
              props.background ? tabButton('background', t('webui-page.panel.background')) : null,
            ]),
            h(
              'button',
              {
                type: 'button',
                class: 'icon-button panel-close',
                'aria-label': t('webui-page.panel.close'),
                onClick: () => props.onClose(),
              },
              icon('close'),
            ),
          ]),
          tab.value === 'settings'
            ? h(
                'div',
                {
                  id: 'panel-settings',
                  role: 'tabpanel',
                  'aria-labelledby': 'tab-settings',
                  class: 'panel-body',
                  'data-testid': 'settings',
                },
                [
                  error
                    ? h('p', { class: 'setting-error', role: 'alert' }, codedErrorNodes(error.message, error.code))
                    : null,
                  loaded && composer.length + common.length + advanced.length === 0
                    ? h('p', { class: 'placeholder' }, t('webui-page.settings.empty'))
                    : null,
                  layerPicker,
                  section(t('webui-page.settings.composer'), composer),
                  section(t('webui-page.settings.common'), common),
                  section(t('webui-page.settings.advanced'), advanced, false),
                  props.budget ? h(SessionBudget, { load: props.budget, refresh: props.usage }) : null,
                  props.writable
                    ? h('div', { class: 'panel-actions' }, [
                        h(
                          'button',
                          { type: 'button', class: 'button', onClick: () => props.onCompact() },
                          t('webui-page.actions.compact'),
                        ),
                        h(
                          'button',
                          { type: 'button', class: 'button danger', onClick: () => props.onClear() },
                          t('webui-page.actions.clear'),
                        ),
                      ])
                    : null,
                ],
              )
            : tab.value === 'background' && props.background
              ? h(
                  'div',
                  {
                    id: 'panel-background',
                    role: 'tabpanel',
                    'aria-labelledby': 'tab-background',
                    class: 'panel-body',
                  },
                  [h(BackgroundPanel, { actions: props.background })],
                )
              : h(
                  'div',
                  {
                    id: 'panel-usage',
                    role: 'tabpanel',
                    'aria-labelledby': 'tab-usage',
                    class: 'panel-body',
                    'data-testid': 'usage',
                  },
                  [renderUsage(props.usage)],
                ),
        ],
      );
    };
  },
});
