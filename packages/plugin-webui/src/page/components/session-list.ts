// The session list: search, a new-session button, and the tree (rooms and direct sessions, child sessions nested
// under their parent) with each session's kind, running and unread marks, last outcome, and a delete button.
import type { SessionSummary } from '@aalis/session-client';
import { defineComponent, h, type PropType, ref } from 'vue';
import { flattenTree, sessionTree } from '../model/session-tree.js';
import { t } from '../page-preferences.js';
import type { PageTextKey } from '../texts.js';
import { icon } from './icons.js';

const KIND_TEXT: Record<SessionSummary['kind'], PageTextKey> = {
  room: 'webui-page.kind.room',
  direct: 'webui-page.kind.direct',
  child: 'webui-page.kind.child',
  web: 'webui-page.kind.web',
  cli: 'webui-page.kind.cli',
};

export function sessionTitle(session: SessionSummary): string {
  return session.title?.trim() || (session.kind === 'web' ? t('webui-page.sessions.untitled') : session.id);
}

export const SessionList = defineComponent({
  name: 'SessionList',
  props: {
    sessions: { type: Array as PropType<readonly SessionSummary[]>, required: true },
    selectedId: { type: String, required: false },
    onSelect: { type: Function as PropType<(id: string) => void>, required: true },
    onCreate: { type: Function as PropType<() => void>, required: true },
    onDelete: { type: Function as PropType<(session: SessionSummary) => void>, required: true },
  },
  setup(props) {
    const query = ref('');
    return () => {
      const rows = flattenTree(sessionTree(props.sessions, query.value));
      return h('nav', { class: 'sessions', 'aria-label': t('webui-page.sessions'), 'data-testid': 'sessions' }, [
        h('div', { class: 'sessions-head' }, [
          h('label', { for: 'session-search', class: 'visually-hidden' }, t('webui-page.sessions.search')),
          h('input', {
            id: 'session-search',
            type: 'search',
            value: query.value,
            placeholder: t('webui-page.sessions.search'),
            'data-testid': 'session-search',
            onInput: (event: Event) => {
              query.value = (event.target as HTMLInputElement).value;
            },
          }),
          h(
            'button',
            {
              type: 'button',
              class: 'button primary icon-only',
              'aria-label': t('webui-page.sessions.new'),
              title: t('webui-page.sessions.new'),
              'data-testid': 'new-session',
              onClick: () => props.onCreate(),
            },
            icon('plus'),
          ),
        ]),
        rows.length === 0
          ? h(
              'p',
              { class: 'placeholder' },
              t(query.value.trim() === '' ? 'webui-page.sessions.empty' : 'webui-page.sessions.noMatch'),
            )
          : h(
              'ul',
              { class: 'session-tree', role: 'list' },
              rows.map(({ session, depth, matched }) =>
                h(
                  'li',
                  {
                    key: session.id,
                    class: ['session-row', session.id === props.selectedId ? 'selected' : '', matched ? '' : 'context'],
                    style: { '--depth': depth },
                    'data-testid': 'session-row',
                    'data-session-id': session.id,
                    'data-depth': depth,
                  },
                  [
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'session-open',
                        'aria-current': session.id === props.selectedId ? 'page' : undefined,
                        onClick: () => props.onSelect(session.id),
                      },
                      [
                        h('span', { class: 'session-title' }, sessionTitle(session)),
                        h('span', { class: 'session-meta' }, [
                          h('span', { class: 'badge' }, t(KIND_TEXT[session.kind] ?? 'webui-page.kind.web')),
                          session.platform !== 'webui' ? h('span', { class: 'badge' }, session.platform) : null,
                          session.running
                            ? h('span', {
                                class: 'dot dot-running',
                                role: 'img',
                                'aria-label': t('webui-page.sessions.running'),
                              })
                            : null,
                          session.unread
                            ? h('span', {
                                class: 'dot dot-unread',
                                role: 'img',
                                'aria-label': t('webui-page.sessions.unread'),
                              })
                            : null,
                          session.lastTurn && session.lastTurn.outcome !== 'replied'
                            ? h(
                                'span',
                                { class: `outcome-mark outcome-${session.lastTurn.outcome}` },
                                t(
                                  session.lastTurn.outcome === 'error'
                                    ? 'webui-page.outcome.errorShort'
                                    : (`webui-page.outcome.${session.lastTurn.outcome}` as PageTextKey),
                                ),
                              )
                            : null,
                        ]),
                      ],
                    ),
                    session.writable
                      ? h(
                          'button',
                          {
                            type: 'button',
                            class: 'icon-button session-delete',
                            'aria-label': `${t('webui-page.sessions.delete')}: ${sessionTitle(session)}`,
                            title: t('webui-page.sessions.delete'),
                            'data-testid': 'delete-session',
                            onClick: () => props.onDelete(session),
                          },
                          icon('trash'),
                        )
                      : null,
                  ],
                ),
              ),
            ),
      ]);
    };
  },
});
