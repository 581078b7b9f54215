// The reader's language and appearance pickers: in the header on wide screens, at the foot of the session drawer
// on phones (the header has no room for them at 390 px).
import { h, type VNode } from 'vue';
import { preferences, setLocale, setTheme, type Theme, t } from '../page-preferences.js';

/** `extra` goes after the pickers (the drawer's log-out button). */
export function renderPreferenceControls(where: 'header' | 'drawer', extra?: VNode): VNode {
  const id = (name: string) => `${name}-${where}`;
  const labelClass = where === 'header' ? 'visually-hidden' : 'muted';
  // Each label stays with its picker when the drawer's row wraps.
  const pair = (name: string, label: string, control: VNode) =>
    h('span', { class: 'preference' }, [h('label', { for: id(name), class: labelClass }, label), control]);
  return h(
    'div',
    { class: ['preferences', where === 'header' ? 'only-wide' : 'only-narrow', `preferences-${where}`] },
    [
      pair(
        'locale',
        t('webui-page.language'),
        h(
          'select',
          {
            id: id('locale'),
            class: 'compact',
            value: preferences.locale,
            'data-testid': `locale-${where}`,
            onChange: (event: Event) => setLocale((event.target as HTMLSelectElement).value as 'zh-CN' | 'en'),
          },
          [h('option', { value: 'zh-CN' }, '中文'), h('option', { value: 'en' }, 'English')],
        ),
      ),
      pair(
        'theme',
        t('webui-page.theme'),
        h(
          'select',
          {
            id: id('theme'),
            class: 'compact',
            value: preferences.theme,
            'data-testid': `theme-${where}`,
            onChange: (event: Event) => setTheme((event.target as HTMLSelectElement).value as Theme),
          },
          [
            h('option', { value: 'auto' }, t('webui-page.theme.auto')),
            h('option', { value: 'light' }, t('webui-page.theme.light')),
            h('option', { value: 'dark' }, t('webui-page.theme.dark')),
          ],
        ),
      ),
      extra ?? null,
    ],
  );
}
