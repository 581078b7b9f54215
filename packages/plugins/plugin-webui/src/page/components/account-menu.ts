// The reader's own menu (the account name in the header): change (or set a first) password, and the login
// sessions of the account — each device with its last use, revocable. A modal <dialog>, as the confirmations.
import type { Account, LoginSessionView, SessionClient } from '@aalis/session-client';
import { defineComponent, h, nextTick, type PropType, ref } from 'vue';
import { ta } from '../console-accounts-texts.js';
import { preferences } from '../page-preferences.js';
import { codedErrorNodes } from './coded-error.js';
import '../console-accounts.css';

type Problem = { code?: string; message: string };

function problemOf(error: unknown): Problem {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return {
    message: typeof message === 'string' ? message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

function when(at: number): string {
  return new Date(at).toLocaleString(preferences.locale);
}

export const AccountMenu = defineComponent({
  name: 'AccountMenu',
  props: {
    client: { type: Object as PropType<SessionClient>, required: true },
    account: { type: Object as PropType<Account>, required: true },
  },
  setup(props) {
    const dialog = ref<HTMLDialogElement | null>(null);
    const open = ref(false);
    const sessions = ref<LoginSessionView[]>([]);
    const hasPassword = ref(true);
    const current = ref('');
    const next = ref('');
    const repeat = ref('');
    const problem = ref<Problem | undefined>();
    const saved = ref(false);
    const busy = ref(false);
    let returnFocus: HTMLElement | null = null;

    const load = async () => {
      try {
        const result = await props.client.request('account.sessions.list', {});
        sessions.value = result.sessions;
        hasPassword.value = result.hasPassword;
      } catch (error) {
        problem.value = problemOf(error);
      }
    };
    const show = async () => {
      returnFocus = document.activeElement as HTMLElement | null;
      open.value = true;
      problem.value = undefined;
      saved.value = false;
      await load();
      await nextTick();
      if (dialog.value && !dialog.value.open) dialog.value.showModal();
    };
    const close = () => {
      dialog.value?.close();
      open.value = false;
      current.value = '';
      next.value = '';
      repeat.value = '';
      returnFocus?.focus();
    };
    const savePassword = async (event: Event) => {
      event.preventDefault();
      problem.value = undefined;
      saved.value = false;
      if (next.value !== repeat.value) {
        problem.value = { message: ta('webui-page.me.mismatch') };
        return;
      }
      busy.value = true;
      try {
        await props.client.request('account.password.set', {
          password: next.value,
          ...(hasPassword.value ? { current: current.value } : {}),
        });
        saved.value = true;
        hasPassword.value = true;
        current.value = '';
        next.value = '';
        repeat.value = '';
      } catch (error) {
        problem.value = problemOf(error);
      } finally {
        busy.value = false;
      }
    };
    const revoke = async (login: LoginSessionView) => {
      try {
        await props.client.request('account.sessions.revoke', { loginId: login.id });
      } catch (error) {
        problem.value = problemOf(error);
      }
      await load();
    };
    const field = (id: string, label: string, value: typeof current, autocomplete: string) => [
      h('label', { for: id }, label),
      h('input', {
        id,
        type: 'password',
        autocomplete,
        required: true,
        maxlength: 256,
        value: value.value,
        onInput: (event: Event) => (value.value = (event.target as HTMLInputElement).value),
      }),
    ];

    return () => [
      h(
        'button',
        {
          type: 'button',
          class: 'button account-menu-button',
          'aria-haspopup': 'dialog',
          title: ta('webui-page.me.menu'),
          'data-testid': 'account-menu',
          onClick: () => void show(),
        },
        props.account.displayName || props.account.userId,
      ),
      open.value
        ? h(
            'dialog',
            {
              ref: dialog,
              class: 'dialog account-dialog',
              'aria-labelledby': 'account-dialog-title',
              'data-testid': 'account-dialog',
              onCancel: (event: Event) => {
                event.preventDefault();
                close();
              },
            },
            [
              h('div', { class: 'section-head' }, [
                h('h2', { id: 'account-dialog-title' }, props.account.displayName || props.account.userId),
                h('button', { type: 'button', class: 'button', onClick: close }, ta('webui-page.me.close')),
              ]),
              h('section', { 'aria-labelledby': 'change-password-title' }, [
                h(
                  'h3',
                  { id: 'change-password-title' },
                  hasPassword.value ? ta('webui-page.me.changePassword') : ta('webui-page.me.setPassword'),
                ),
                hasPassword.value ? null : h('p', { class: 'muted' }, ta('webui-page.me.setPasswordHint')),
                h('form', { class: 'stacked-form', onSubmit: (event: Event) => void savePassword(event) }, [
                  // The account name for password managers (they pair it with the new password).
                  h('input', {
                    type: 'text',
                    autocomplete: 'username',
                    value: props.account.userId,
                    readonly: true,
                    hidden: true,
                    'aria-hidden': 'true',
                  }),
                  ...(hasPassword.value
                    ? field('current-password', ta('webui-page.me.currentPassword'), current, 'current-password')
                    : []),
                  ...field('new-password', ta('webui-page.me.newPassword'), next, 'new-password'),
                  ...field('repeat-password', ta('webui-page.me.repeatPassword'), repeat, 'new-password'),
                  problem.value
                    ? h(
                        'p',
                        { class: 'setting-error', role: 'alert' },
                        codedErrorNodes(problem.value.message, problem.value.code),
                      )
                    : null,
                  saved.value ? h('p', { role: 'status', class: 'muted' }, ta('webui-page.me.passwordSaved')) : null,
                  h(
                    'button',
                    { type: 'submit', class: 'button primary', disabled: busy.value },
                    hasPassword.value ? ta('webui-page.me.changePassword') : ta('webui-page.me.setPassword'),
                  ),
                ]),
              ]),
              h('section', { 'aria-labelledby': 'login-sessions-title' }, [
                h('h3', { id: 'login-sessions-title' }, ta('webui-page.me.sessions')),
                h(
                  'ul',
                  { class: 'login-sessions plain-list', 'data-testid': 'login-sessions' },
                  sessions.value.map((login) => {
                    const device = login.device ?? ta('webui-page.me.unknownDevice');
                    return h('li', { key: login.id, class: 'login-session', 'data-current': String(login.current) }, [
                      h('div', { class: 'login-session-text' }, [
                        h('div', { class: 'login-device' }, device),
                        h('div', { class: 'muted' }, [
                          login.method ? `${ta(`webui-page.me.method.${login.method}`)} · ` : '',
                          ta('webui-page.me.lastUsedAt', { time: when(login.lastUsedAt) }),
                        ]),
                      ]),
                      login.current
                        ? h('span', { class: 'tag' }, ta('webui-page.me.current'))
                        : h(
                            'button',
                            {
                              type: 'button',
                              class: 'button danger',
                              'aria-label': ta('webui-page.me.revokeOf', { device }),
                              onClick: () => void revoke(login),
                            },
                            ta('webui-page.me.revoke'),
                          ),
                    ]);
                  }),
                ),
              ]),
            ],
          )
        : null,
    ];
  },
});
