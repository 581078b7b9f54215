// The page's layout: a header (menu on phones, connection, language, appearance, admin for the owner), the
// session list, the conversation with its composer, and the side panel (settings, usage); or the admin area; or
// the login page. On a phone the list and the panel are drawers over the conversation.
import type { SessionSummary } from '@aalis/session-client';
import {
  computed,
  defineComponent,
  h,
  nextTick,
  onMounted,
  onUnmounted,
  type PropType,
  ref,
  watch,
  watchEffect,
} from 'vue';
import { tm } from '../memory-texts.js';
import type { AppModel } from '../model/app-model.js';
import { lastEditable } from '../model/message-actions.js';
import { newChatFields } from '../model/new-chat-fields.js';
import { SearchModel } from '../model/search-model.js';
import { descendantsOf } from '../model/session-tree.js';
import type { SettingState } from '../model/settings-model.js';
import { usageView } from '../model/usage-view.js';
import { hostLocale, preferences, t } from '../page-preferences.js';
import { useStore } from '../use-store.js';
import { tw } from '../workflow-texts.js';
import { AccountMenu } from './account-menu.js';
import { AdminView } from './admin-view.js';
import { codedErrorNodes } from './coded-error.js';
import { Composer } from './composer.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { ConversationView } from './conversation-view.js';
import { icon } from './icons.js';
import { LoginForm } from './login-form.js';
import { MemoryView } from './memory-view.js';
import { NewChat } from './new-chat.js';
import { replySpeech } from './play-button.js';
import { renderPreferenceControls } from './preference-controls.js';
import { SessionList, type SessionListActions, sessionTitle } from './session-list.js';
import type { SettingActions } from './setting-control.js';
import { SidePanel } from './side-panel.js';
import { WorkflowsView } from './workflows-view.js';

interface Confirmation {
  title: string;
  lines: string[];
  confirmLabel: string;
  run(): void;
}

/** The model the next turn uses: the session's llm setting, else the service's default. */
function answeringModel(fields: readonly SettingState[], defaultModel: string | undefined): string | undefined {
  const value = fields.find((state) => state.setting.key === 'llm')?.setting.value;
  if (typeof value === 'string' && value !== '') return value;
  if (value && typeof value === 'object') {
    const { provider, model } = value as { provider?: unknown; model?: unknown };
    if (typeof provider === 'string' && typeof model === 'string') return `${provider}/${model}`;
  }
  return defaultModel;
}

export const AppShell = defineComponent({
  name: 'AppShell',
  props: { app: { type: Object as PropType<AppModel>, required: true } },
  setup(props) {
    const app = props.app;
    const snapshot = useStore(app);
    const drawer = ref<'none' | 'sessions' | 'panel'>('none');
    const panelOpen = ref(true);
    // Reactive, so crossing the phone width (a rotated tablet, a resized window) lays the page out again: without
    // it a panel open on the desktop stayed over the conversation, with no scrim, Escape or one-click close.
    const phoneWidth = window.matchMedia('(max-width: 760px)');
    const isNarrow = ref(phoneWidth.matches);
    const onWidthChange = (event: MediaQueryListEvent) => {
      isNarrow.value = event.matches;
      drawer.value = 'none';
    };
    onMounted(() => phoneWidth.addEventListener('change', onWidthChange));
    onUnmounted(() => phoneWidth.removeEventListener('change', onWidthChange));
    const confirmation = ref<Confirmation | undefined>();
    // Settings and conversation models change with the selected session; re-read them on every snapshot.
    const settingsSnapshot = ref(0);
    let unsubscribeSettings: (() => void) | undefined;
    watchEffect(() => {
      void snapshot.value.selectedId;
      unsubscribeSettings?.();
      unsubscribeSettings = app.settings?.subscribe(() => {
        settingsSnapshot.value += 1;
      });
    });
    watchEffect(() => hostLocale(snapshot.value.hostLocale));
    // Her replies get a Play button when the host can speak them (hello.features.voiceOutput).
    watchEffect(() => {
      replySpeech.value =
        snapshot.value.features?.voiceOutput === true
          ? (reply) => app.client.request('message.speech', { sessionId: snapshot.value.selectedId ?? '', ...reply })
          : undefined;
    });
    // A language picked on the page goes to the server too, so what it writes follows (docs/session-protocol.md
    // 「Locale」).
    watch(
      () => preferences.locale,
      (locale) => {
        if (preferences.chosenLocale && snapshot.value.phase === 'ready') void app.useLocale(locale);
      },
    );
    watchEffect(() => {
      document.documentElement.lang = preferences.locale;
      document.documentElement.dataset.theme = preferences.theme;
      document.title = t('webui-page.title');
    });
    const usage = computed(() =>
      snapshot.value.usage ? usageView(snapshot.value.usage, preferences.locale) : undefined,
    );
    const settingActions: SettingActions = {
      set: (key, value) => void app.settings?.set(key, value),
      reset: (key) => void app.settings?.reset(key),
    };

    const askDelete = (session: SessionSummary) => {
      const children = descendantsOf(snapshot.value.sessions, session.id).length;
      const lines = [t('webui-page.sessions.deleteConfirm', { title: sessionTitle(session) })];
      if (children > 0) lines.push(t('webui-page.sessions.deleteChildren', { count: children }));
      if (session.running) lines.push(t('webui-page.sessions.deleteRunning'));
      confirmation.value = {
        title: t('webui-page.sessions.delete'),
        lines,
        confirmLabel: t('webui-page.delete'),
        run: () => void app.deleteSession(session.id),
      };
    };
    const search = new SearchModel({
      sessions: (params) => app.client.request('sessions.list', params),
      messages: (params) => app.client.request('search', params),
    });
    onUnmounted(() => search.dispose());
    const searchSnapshot = useStore(search);
    const download = (file: { filename: string; mimeType: string; content: string }) => {
      const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    };
    const listActions: SessionListActions = {
      select: (id) => {
        drawer.value = 'none';
        void app.select(id);
      },
      create: () => {
        drawer.value = 'none';
        app.newChat();
        focusComposer();
      },
      delete: (session) => askDelete(session),
      rename: (session, title) => app.renameSession(session.id, title),
      pin: (session, pinned) => void app.pinSession(session.id, pinned),
      archive: (session, archived) => void app.archiveSession(session.id, archived),
      export: (session, format) =>
        void app.exportSession(session.id, format).then((file) => {
          if (file) download(file);
        }),
      query: (text) => search.setQuery(text),
      openHit: (hit) => {
        drawer.value = 'none';
        void app.openAt(hit.sessionId, hit.messageId);
      },
    };
    const askClear = () => {
      confirmation.value = {
        title: t('webui-page.actions.clear'),
        lines: [t('webui-page.actions.clearConfirm')],
        confirmLabel: t('webui-page.actions.clear'),
        run: () => void app.clear(),
      };
    };
    /** After the chat on screen changed (a new chat from the list's button): the cursor goes to the composer. */
    const focusComposer = () => void nextTick().then(() => document.getElementById('composer-text')?.focus());
    /**
     * The page's keys, wherever the focus is: Escape closes an open drawer, else stops a running reply (an open
     * dialog or message editor takes its own Escape); Ctrl/⌘+K goes to the session search (opening the list on a
     * phone).
     */
    const onDocumentKeydown = (event: KeyboardEvent) => {
      if (snapshot.value.phase !== 'ready' || event.defaultPrevented || event.isComposing) return;
      if (event.key === 'Escape') {
        if (confirmation.value) return;
        if (drawer.value !== 'none') {
          drawer.value = 'none';
          return;
        }
        if (snapshot.value.view === 'chat' && app.conversation?.getSnapshot().runningTurnId !== undefined) {
          event.preventDefault();
          void app.stop();
        }
      } else if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        if (isNarrow.value) drawer.value = 'sessions';
        void nextTick().then(() => {
          const search = document.getElementById('session-search');
          if (search instanceof HTMLInputElement) {
            search.focus();
            search.select();
          }
        });
      }
    };
    onMounted(() => document.addEventListener('keydown', onDocumentKeydown));
    onUnmounted(() => document.removeEventListener('keydown', onDocumentKeydown));

    /**
     * The other pages (管理, 工作流, 记忆): in the header on wide screens; on phones in the session drawer, one tap
     * away, so the header keeps room for the menu and the panel toggle. Rendered in one place at a time, so each
     * test id names one button.
     */
    const pageButtons = () => {
      const { account, view } = snapshot.value;
      if (!account) return null;
      // A page opened from the drawer closes it, as picking a session does; pressed again, the page closes.
      const pageButton = (page: 'admin' | 'workflows' | 'memory', label: string, open: () => void, close: () => void) =>
        h(
          'button',
          {
            type: 'button',
            class: 'button',
            'data-testid': `open-${page}`,
            'aria-pressed': String(view === page),
            onClick: () => {
              drawer.value = 'none';
              if (snapshot.value.view === page) close();
              else open();
            },
          },
          label,
        );
      return h('nav', { class: 'page-buttons', 'aria-label': t('webui-page.pages') }, [
        account.owner
          ? pageButton(
              'admin',
              t('webui-page.admin'),
              () => void app.openAdmin(),
              () => void app.closeAdmin(),
            )
          : null,
        account.owner
          ? pageButton(
              'workflows',
              tw('webui-page.workflows'),
              () => app.openWorkflows(),
              () => app.closeWorkflows(),
            )
          : null,
        pageButton(
          'memory',
          tm('webui-page.memory'),
          () => app.openMemory(),
          () => app.closeMemory(),
        ),
      ]);
    };

    const header = () => {
      const { account, connection } = snapshot.value;
      return h('header', { class: 'topbar' }, [
        h('a', { href: '#composer-text', class: 'skip-link' }, t('webui-page.skip')),
        h(
          'button',
          {
            type: 'button',
            class: 'icon-button only-narrow',
            'aria-label': t('webui-page.menu'),
            'aria-expanded': drawer.value === 'sessions' ? 'true' : 'false',
            'data-testid': 'menu',
            onClick: () => (drawer.value = drawer.value === 'sessions' ? 'none' : 'sessions'),
          },
          icon('menu'),
        ),
        h('span', { class: 'brand' }, t('webui-page.title')),
        h(
          'span',
          { class: ['connection', `connection-${connection}`], role: 'status', 'data-testid': 'connection' },
          connection === 'open'
            ? ''
            : t(
                connection === 'reconnecting'
                  ? 'webui-page.connection.reconnecting'
                  : 'webui-page.connection.connecting',
              ),
        ),
        h('span', { class: 'spacer' }),
        renderPreferenceControls('header'),
        isNarrow.value ? null : pageButtons(),
        snapshot.value.selectedId && snapshot.value.view === 'chat'
          ? h(
              'button',
              {
                type: 'button',
                class: 'icon-button',
                'aria-label': t('webui-page.panel.toggle'),
                title: t('webui-page.panel.toggle'),
                'aria-expanded': String(isPanelShown()),
                'data-testid': 'panel-toggle',
                onClick: togglePanel,
              },
              icon('sliders'),
            )
          : null,
        account && !isNarrow.value
          ? h('span', { class: 'account' }, h(AccountMenu, { client: app.client, account }))
          : null,
        account
          ? h(
              'button',
              { type: 'button', class: 'button only-wide', 'data-testid': 'logout', onClick: () => void app.logout() },
              t('webui-page.logout'),
            )
          : null,
      ]);
    };
    const narrow = () => isNarrow.value;
    const isPanelShown = () => (narrow() ? drawer.value === 'panel' : panelOpen.value);
    const togglePanel = () => {
      if (narrow()) drawer.value = drawer.value === 'panel' ? 'none' : 'panel';
      else panelOpen.value = !panelOpen.value;
    };

    const chat = () => {
      const { selectedId, sessions, account, limits, models, chatKey } = snapshot.value;
      void settingsSnapshot.value;
      const conversation = app.conversation;
      const settings = app.settings;
      const session = sessions.find((candidate) => candidate.id === selectedId);
      if (!conversation || !settings || !selectedId) return newChat();
      const running = conversation.getSnapshot().runningTurnId !== undefined;
      const writable = session?.writable ?? true;
      // IM rooms are read-only here (the composer is off; Stop and the settings stay).
      const canSend = writable && (session?.canSend ?? true);
      return [
        h('main', { id: 'main', class: 'main', key: `chat-${chatKey}` }, [
          h('h1', { class: 'visually-hidden' }, session ? sessionTitle(session) : selectedId),
          h(ConversationView, {
            model: conversation,
            selfId: account?.userId,
            canSend,
            focus: snapshot.value.focus?.sessionId === selectedId ? snapshot.value.focus : undefined,
            handlers: {
              editTurn: (turnId: string, text: string) => app.editTurn(turnId, text),
              regenerate: (turnId: string) => void app.regenerate(turnId),
              retry: (turnId: string) => void app.retry(turnId),
            },
          }),
          h(Composer, {
            key: 'composer',
            modelId: answeringModel(settings.getSnapshot().composer, snapshot.value.defaultModel),
            running,
            writable: canSend,
            limits,
            voiceInput: snapshot.value.features?.voiceInput === true,
            fields: settings.getSnapshot().composer,
            models,
            settingActions,
            onSend: (
              text: string,
              attachments: Parameters<AppModel['send']>[1],
              previews: Parameters<AppModel['send']>[2],
            ) => app.send(text, attachments, previews),
            onStop: () => void app.stop(),
            commands: snapshot.value.commands,
            onWantCommands: () => app.loadCommands(),
            onEditLast: () => {
              const last = lastEditable(conversation.getSnapshot().entries, {
                selfId: account?.userId,
                canSend,
                running,
              });
              if (last?.turnId) conversation.startEdit(last.turnId);
              return last !== undefined;
            },
          }),
        ]),
        isPanelShown()
          ? h(SidePanel, {
              key: `panel-${selectedId}`,
              settings,
              usage: usage.value,
              models,
              writable,
              onClose: togglePanel,
              onClear: askClear,
              onCompact: () => void app.compact(),
              background: {
                list: async () => (await app.client.request('background.list', { sessionId: selectedId })).tasks,
                stop: (taskId: string) => app.client.request('background.stop', { sessionId: selectedId, taskId }),
                stopAll: () => app.client.request('background.stopAll', { sessionId: selectedId }),
              },
              budget: () => app.client.request('session.budget', { sessionId: selectedId }),
            })
          : null,
      ];
    };

    /** A new chat: greeting, starters, and the composer with the model picker; the session comes with the first send. */
    const newChat = () => {
      const { limits, models, chatKey, draftModel, defaultModel } = snapshot.value;
      const fields = newChatFields(models, draftModel, defaultModel, {
        label: t('webui-page.newChat.model'),
        defaultChoice: (name) =>
          name ? t('webui-page.newChat.defaultModel', { name }) : t('webui-page.newChat.defaultModelUnnamed'),
      });
      const send = (
        text: string,
        attachments: Parameters<AppModel['send']>[1],
        previews: Parameters<AppModel['send']>[2],
      ) => app.send(text, attachments, previews);
      return h('main', { id: 'main', class: 'main', key: `chat-${chatKey}` }, [
        h('h1', { class: 'visually-hidden' }, t('webui-page.sessions.untitled')),
        h(NewChat, { canSend: true, onStarter: (text: string) => void app.send(text, [], []) }),
        h(Composer, {
          key: 'composer',
          modelId: draftModel ?? defaultModel,
          running: false,
          writable: true,
          limits,
          voiceInput: snapshot.value.features?.voiceInput === true,
          fields,
          models,
          settingActions: {
            set: (_key: string, value: unknown) => app.pickDraftModel(typeof value === 'string' ? value : undefined),
            reset: () => app.pickDraftModel(undefined),
          },
          onSend: send,
          onStop: () => undefined,
          commands: snapshot.value.commands,
          onWantCommands: () => app.loadCommands(),
        }),
      ]);
    };

    // The conversation's running state decides the Stop button: follow it too.
    const conversationTick = ref(0);
    let unsubscribeConversation: (() => void) | undefined;
    watchEffect(() => {
      void snapshot.value.selectedId;
      unsubscribeConversation?.();
      let wasRunning = app.conversation?.getSnapshot().runningTurnId !== undefined;
      unsubscribeConversation = app.conversation?.subscribe(() => {
        const running = app.conversation?.getSnapshot().runningTurnId !== undefined;
        if (running !== wasRunning) conversationTick.value += 1;
        wasRunning = running;
      });
    });

    return () => {
      void conversationTick.value;
      const { phase, loginError, view, sessions, selectedId, notices, admin, models } = snapshot.value;
      if (phase === 'starting')
        return h('div', { class: 'splash' }, h('p', { class: 'placeholder' }, t('webui-page.loading')));
      if (phase === 'login-needed')
        return h('main', { class: 'login', 'data-testid': 'login' }, [
          h('h1', t('webui-page.login.title')),
          h('p', t('webui-page.login.body')),
          h(LoginForm, { client: app.client, onLoggedIn: () => location.reload() }),
          loginError
            ? h(
                'p',
                { class: 'setting-error', role: 'alert', 'data-testid': 'login-error' },
                codedErrorNodes(t('webui-page.login.failed', { message: loginError.message }), loginError.code),
              )
            : null,
        ]);
      return h('div', { class: ['shell', `drawer-${drawer.value}`] }, [
        header(),
        h('div', { class: 'body' }, [
          h('div', { class: 'sessions-pane' }, [
            h(SessionList, {
              sessions,
              selectedId,
              search: searchSnapshot.value,
              actions: listActions,
            }),
            isNarrow.value ? h('div', { class: 'drawer-pages' }, [pageButtons()]) : null,
            renderPreferenceControls(
              'drawer',
              h('span', { class: 'drawer-account' }, [
                snapshot.value.account ? h(AccountMenu, { client: app.client, account: snapshot.value.account }) : null,
                h(
                  'button',
                  { type: 'button', class: 'button', onClick: () => void app.logout() },
                  t('webui-page.logout'),
                ),
              ]),
            ),
          ]),
          drawer.value === 'none'
            ? null
            : h('div', { class: 'scrim only-narrow', 'aria-hidden': 'true', onClick: () => (drawer.value = 'none') }),
          view === 'admin'
            ? h(AdminView, {
                admin,
                client: app.client,
                describeError: (error: unknown) => app.describeError(error),
                models,
                onBack: () => void app.closeAdmin(),
                onRefresh: () => void app.refreshPlugins(),
                onDefaultModel: (model: string | null) => void app.setDefaultModel(model),
              })
            : view === 'workflows'
              ? h(WorkflowsView, {
                  client: app.client,
                  describeError: (error: unknown) => app.describeError(error),
                  onBack: () => app.closeWorkflows(),
                })
              : view === 'memory'
                ? h(MemoryView, {
                    client: app.client,
                    describeError: (error: unknown) => app.describeError(error),
                    onBack: () => app.closeMemory(),
                  })
                : chat(),
        ]),
        notices.length === 0
          ? null
          : h(
              'div',
              { class: 'toasts', role: 'alert', 'data-testid': 'notices' },
              notices.map((notice) =>
                h('div', { key: notice.id, class: ['toast', notice.tone === 'info' ? 'toast-info' : ''] }, [
                  h('span', notice.tone === 'info' ? notice.message : codedErrorNodes(notice.message, notice.code)),
                  h(
                    'button',
                    {
                      type: 'button',
                      class: 'icon-button',
                      'aria-label': t('webui-page.dismiss'),
                      onClick: () => app.dismiss(notice.id),
                    },
                    icon('close'),
                  ),
                ]),
              ),
            ),
        confirmation.value
          ? h(ConfirmDialog, {
              ...confirmation.value,
              onAnswer: (confirmed: boolean) => {
                const current = confirmation.value;
                confirmation.value = undefined;
                if (confirmed) current?.run();
              },
            })
          : null,
      ]);
    };
  },
});
