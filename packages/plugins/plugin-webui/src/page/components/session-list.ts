// The session list: search, a new-chat button, and the tree (rooms and direct sessions, child sessions nested
// under their parent; pinned ones first) with each session's kind, running and unread marks, last outcome, a
// delete button and a menu (rename, pin, archive, export as Markdown or JSON, delete). A double-click on a title
// renames it in place. While a search is typed, the sessions the server found by title (archived ones too) and the
// messages it found by content follow the matching rows; a hit opens its session at that message.
import type { SearchHit, SessionSummary } from '@aalis/session-client';
import { defineComponent, h, nextTick, type PropType, ref, type VNode } from 'vue';
import { type SearchSnapshot, snippetParts } from '../model/search-model.js';
import { flattenTree, sessionTree } from '../model/session-tree.js';
import { preferences, t } from '../page-preferences.js';
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

/** What the list asks the page to do with a session. */
export interface SessionListActions {
  select(id: string): void;
  create(): void;
  delete(session: SessionSummary): void;
  rename(session: SessionSummary, title: string): Promise<boolean>;
  pin(session: SessionSummary, pinned: boolean): void;
  archive(session: SessionSummary, archived: boolean): void;
  export(session: SessionSummary, format: 'markdown' | 'json'): void;
  query(text: string): void;
  openHit(hit: SearchHit): void;
}

interface MenuItem {
  label: string;
  testId: string;
  run(): void;
}

export const SessionList = defineComponent({
  name: 'SessionList',
  props: {
    sessions: { type: Array as PropType<readonly SessionSummary[]>, required: true },
    selectedId: { type: String, required: false },
    search: { type: Object as PropType<SearchSnapshot>, required: true },
    actions: { type: Object as PropType<SessionListActions>, required: true },
  },
  setup(props) {
    const menuFor = ref<string | undefined>();
    const renaming = ref<{ id: string; title: string } | undefined>();

    const closeMenu = (focusButton = false) => {
      const id = menuFor.value;
      menuFor.value = undefined;
      if (focusButton && id)
        void nextTick().then(() =>
          document.querySelector<HTMLElement>(`[data-session-id="${CSS.escape(id)}"] .session-more`)?.focus(),
        );
    };
    const startRename = (session: SessionSummary) => {
      menuFor.value = undefined;
      renaming.value = { id: session.id, title: session.title?.trim() || '' };
    };
    const commitRename = async (session: SessionSummary) => {
      const current = renaming.value;
      if (!current || current.id !== session.id) return;
      if (current.title.trim() === '' || current.title.trim() === (session.title ?? '').trim()) {
        renaming.value = undefined;
        return;
      }
      if (await props.actions.rename(session, current.title)) renaming.value = undefined;
    };

    const menuItems = (session: SessionSummary): MenuItem[] => [
      { label: t('webui-page.sessions.rename'), testId: 'session-rename', run: () => startRename(session) },
      {
        label: t(session.pinned ? 'webui-page.sessions.unpin' : 'webui-page.sessions.pin'),
        testId: 'session-pin',
        run: () => props.actions.pin(session, !session.pinned),
      },
      {
        label: t(session.archived ? 'webui-page.sessions.unarchive' : 'webui-page.sessions.archive'),
        testId: 'session-archive',
        run: () => props.actions.archive(session, !session.archived),
      },
      {
        label: t('webui-page.sessions.exportMarkdown'),
        testId: 'session-export-markdown',
        run: () => props.actions.export(session, 'markdown'),
      },
      {
        label: t('webui-page.sessions.exportJson'),
        testId: 'session-export-json',
        run: () => props.actions.export(session, 'json'),
      },
      {
        label: t('webui-page.sessions.delete'),
        testId: 'session-menu-delete',
        run: () => props.actions.delete(session),
      },
    ];

    const renderMenu = (session: SessionSummary): VNode =>
      h(
        'ul',
        {
          class: 'session-menu',
          role: 'menu',
          'aria-label': t('webui-page.sessions.more', { title: sessionTitle(session) }),
          'data-testid': 'session-menu',
          onKeydown: (event: KeyboardEvent) => {
            const items = [...(event.currentTarget as HTMLElement).querySelectorAll<HTMLElement>('[role="menuitem"]')];
            const at = items.indexOf(document.activeElement as HTMLElement);
            if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              closeMenu(true);
            } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              const step = event.key === 'ArrowDown' ? 1 : items.length - 1;
              items[(at + step) % items.length]?.focus();
            }
          },
          onFocusout: (event: FocusEvent) => {
            const next = event.relatedTarget as Node | null;
            const row = (event.currentTarget as HTMLElement).closest('.session-row');
            if (!next || !row?.contains(next)) menuFor.value = undefined;
          },
        },
        menuItems(session).map((item, index) =>
          h('li', { key: item.testId, role: 'none' }, [
            h(
              'button',
              {
                type: 'button',
                role: 'menuitem',
                class: 'menu-item',
                'data-testid': item.testId,
                onVnodeMounted: index === 0 ? (vnode: VNode) => (vnode.el as HTMLElement).focus() : undefined,
                onClick: () => {
                  closeMenu();
                  item.run();
                },
              },
              item.label,
            ),
          ]),
        ),
      );

    const renderTitle = (session: SessionSummary): VNode => {
      const editing = renaming.value?.id === session.id ? renaming.value : undefined;
      if (editing)
        return h('input', {
          class: 'session-rename-input',
          type: 'text',
          value: editing.title,
          maxlength: 200,
          'aria-label': t('webui-page.sessions.renameLabel'),
          'data-testid': 'session-rename-input',
          onVnodeMounted: (vnode: VNode) => {
            const input = vnode.el as HTMLInputElement;
            input.focus();
            input.select();
          },
          onInput: (event: Event) => {
            renaming.value = { id: session.id, title: (event.target as HTMLInputElement).value };
          },
          onKeydown: (event: KeyboardEvent) => {
            if (event.key === 'Enter' && !event.isComposing) {
              event.preventDefault();
              void commitRename(session);
            } else if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              renaming.value = undefined;
            }
          },
          onBlur: () => void commitRename(session),
        });
      return h(
        'button',
        {
          type: 'button',
          class: 'session-open',
          'aria-current': session.id === props.selectedId ? 'page' : undefined,
          onClick: () => props.actions.select(session.id),
          onDblclick: session.writable ? () => startRename(session) : undefined,
        },
        [
          h('span', { class: 'session-title' }, [
            session.pinned
              ? h(
                  'span',
                  { class: 'pin-mark', role: 'img', 'aria-label': t('webui-page.sessions.pinned') },
                  icon('pin'),
                )
              : null,
            sessionTitle(session),
          ]),
          h('span', { class: 'session-meta' }, [
            h('span', { class: 'badge' }, t(KIND_TEXT[session.kind] ?? 'webui-page.kind.web')),
            session.platform !== 'webui' ? h('span', { class: 'badge' }, session.platform) : null,
            session.archived ? h('span', { class: 'badge' }, t('webui-page.sessions.archived')) : null,
            session.running
              ? h('span', { class: 'dot dot-running', role: 'img', 'aria-label': t('webui-page.sessions.running') })
              : null,
            session.unread
              ? h('span', { class: 'dot dot-unread', role: 'img', 'aria-label': t('webui-page.sessions.unread') })
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
      );
    };

    const renderRow = (session: SessionSummary, depth: number, matched: boolean): VNode =>
      h(
        'li',
        {
          key: session.id,
          class: [
            'session-row',
            session.id === props.selectedId ? 'selected' : '',
            matched ? '' : 'context',
            menuFor.value === session.id ? 'menu-open' : '',
          ],
          style: { '--depth': depth },
          'data-testid': 'session-row',
          'data-session-id': session.id,
          'data-depth': depth,
          'data-pinned': session.pinned ? 'true' : undefined,
          'data-archived': session.archived ? 'true' : undefined,
        },
        [
          renderTitle(session),
          session.writable
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'icon-button session-more',
                  'aria-label': t('webui-page.sessions.more', { title: sessionTitle(session) }),
                  title: t('webui-page.sessions.moreShort'),
                  'aria-haspopup': 'menu',
                  'aria-expanded': menuFor.value === session.id ? 'true' : 'false',
                  'data-testid': 'session-more',
                  onClick: () => (menuFor.value = menuFor.value === session.id ? undefined : session.id),
                },
                icon('more'),
              )
            : null,
          session.writable
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'icon-button session-delete',
                  'aria-label': `${t('webui-page.sessions.delete')}: ${sessionTitle(session)}`,
                  title: t('webui-page.sessions.delete'),
                  'data-testid': 'delete-session',
                  onClick: () => props.actions.delete(session),
                },
                icon('trash'),
              )
            : null,
          menuFor.value === session.id ? renderMenu(session) : null,
        ],
      );

    const renderHits = (): VNode | null => {
      const { hits, busy, error, truncated, query } = props.search;
      if (query.trim() === '') return null;
      return h(
        'section',
        { class: 'search-hits', 'aria-label': t('webui-page.search.messages'), 'data-testid': 'search-hits' },
        [
          h('h2', { class: 'search-hits-title' }, t('webui-page.search.messages')),
          busy ? h('p', { class: 'placeholder' }, t('webui-page.search.busy')) : null,
          error
            ? h('p', { class: 'placeholder' }, [
                t('webui-page.search.failed', { message: error.message }),
                ' ',
                h('small', { class: 'error-code' }, error.code),
              ])
            : null,
          !busy && !error && hits.length === 0 ? h('p', { class: 'placeholder' }, t('webui-page.search.none')) : null,
          hits.length === 0
            ? null
            : h(
                'ul',
                { class: 'search-hit-list plain-list', role: 'list' },
                hits.map((hit) =>
                  h('li', { key: `${hit.sessionId}/${hit.messageId}` }, [
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'search-hit',
                        'data-testid': 'search-hit',
                        'data-session-id': hit.sessionId,
                        'data-message-id': hit.messageId,
                        onClick: () => props.actions.openHit(hit),
                      },
                      [
                        h('span', { class: 'search-hit-session' }, [
                          hit.sessionTitle?.trim() || hit.sessionId,
                          hit.archived ? h('span', { class: 'badge' }, t('webui-page.sessions.archived')) : null,
                          hit.superseded ? h('span', { class: 'badge' }, t('webui-page.version.superseded')) : null,
                        ]),
                        h(
                          'span',
                          { class: 'search-hit-snippet' },
                          snippetParts(hit.snippet).map((part, index) =>
                            part.match ? h('mark', { key: index }, part.text) : part.text,
                          ),
                        ),
                        h(
                          'time',
                          { class: 'time', datetime: new Date(hit.at).toISOString() },
                          new Date(hit.at).toLocaleString(preferences.locale, {
                            dateStyle: 'short',
                            timeStyle: 'short',
                          }),
                        ),
                      ],
                    ),
                  ]),
                ),
              ),
          truncated ? h('p', { class: 'placeholder' }, t('webui-page.search.truncated')) : null,
        ],
      );
    };

    return () => {
      const query = props.search.query;
      // The loaded list filtered at once; the server's sessions (archived ones included) join when they come.
      const extra = (props.search.sessions ?? []).filter(
        (found) => !props.sessions.some((known) => known.id === found.id),
      );
      const rows = flattenTree(sessionTree([...props.sessions, ...extra], query));
      return h('nav', { class: 'sessions', 'aria-label': t('webui-page.sessions'), 'data-testid': 'sessions' }, [
        h('div', { class: 'sessions-head' }, [
          h('label', { for: 'session-search', class: 'visually-hidden' }, t('webui-page.sessions.search')),
          h('input', {
            id: 'session-search',
            type: 'search',
            value: query,
            placeholder: t('webui-page.sessions.searchHint'),
            'data-testid': 'session-search',
            onInput: (event: Event) => props.actions.query((event.target as HTMLInputElement).value),
          }),
          h(
            'button',
            {
              type: 'button',
              class: 'button primary icon-only',
              'aria-label': t('webui-page.sessions.new'),
              title: t('webui-page.sessions.new'),
              'data-testid': 'new-session',
              onClick: () => props.actions.create(),
            },
            icon('plus'),
          ),
        ]),
        rows.length === 0
          ? h(
              'p',
              { class: 'placeholder' },
              t(query.trim() === '' ? 'webui-page.sessions.empty' : 'webui-page.sessions.noMatch'),
            )
          : h(
              'ul',
              { class: 'session-tree', role: 'list' },
              rows.map(({ session, depth, matched }) => renderRow(session, depth, matched)),
            ),
        renderHits(),
      ]);
    };
  },
});
