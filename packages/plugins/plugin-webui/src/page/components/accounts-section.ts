// The owner's 账号/Accounts section: every account (the owner and YAML-declared ones marked as such, not
// deletable; the ones made here), with its level, whether it has a password and its logins; a form to create
// one (id, display name, level, password), and per account an editor (level, password; display name for the
// ones made here), its logins (device, last use; each revocable) and delete (confirmed).
import type { AccountView, LoginSessionView, ParamsOf } from '@aalis/session-client';
import { defineComponent, h, onMounted, ref } from 'vue';
import { ta } from '../console-accounts-texts.js';
import { preferences } from '../page-preferences.js';
import { ConfirmDialog } from './confirm-dialog.js';
import '../console-accounts.css';
import { errorAlert } from './coded-error.js';
import { consoleProps } from './console-props.js';

interface Draft {
  userId: string;
  displayName: string;
  level: string;
  password: string;
}

const emptyDraft = (): Draft => ({ userId: '', displayName: '', level: '0', password: '' });

export const AccountsSection = defineComponent({
  name: 'AccountsSection',
  props: consoleProps,
  setup(props) {
    const accounts = ref<AccountView[]>([]);
    const draft = ref<Draft>(emptyDraft());
    const editing = ref<{ userId: string; draft: Draft; removePassword: boolean } | undefined>();
    const problem = ref<string | undefined>();
    const notice = ref<string | undefined>();
    const deleting = ref<AccountView | undefined>();
    const logins = ref<{ userId: string; sessions: LoginSessionView[] } | undefined>();
    const busy = ref(false);

    const load = async () => {
      try {
        accounts.value = (await props.client.request('admin.accounts.list', {})).accounts;
      } catch (error) {
        problem.value = props.describeError(error);
      }
    };
    onMounted(() => void load());
    const run = async (action: () => Promise<unknown>, done: string) => {
      busy.value = true;
      problem.value = undefined;
      notice.value = undefined;
      try {
        await action();
        notice.value = done;
        return true;
      } catch (error) {
        problem.value = props.describeError(error);
        return false;
      } finally {
        busy.value = false;
        await load();
      }
    };
    const showLogins = async (userId: string) => {
      if (logins.value?.userId === userId) {
        logins.value = undefined;
        return;
      }
      problem.value = undefined;
      // The list's login counts too: they were counted when it was loaded.
      void load();
      try {
        logins.value = { userId, ...(await props.client.request('admin.accounts.logins', { userId })) };
      } catch (error) {
        problem.value = props.describeError(error);
      }
    };
    const revoke = async (userId: string, login: LoginSessionView) => {
      await run(
        () => props.client.request('admin.accounts.logins.revoke', { userId, loginId: login.id }),
        ta('webui-page.accounts.revoked'),
      );
      // Listed again either way: a refused revocation is most often a login that ended meanwhile.
      logins.value = undefined;
      await showLogins(userId);
    };
    const loginList = (userId: string) =>
      h('div', { class: 'account-logins', 'data-testid': 'account-logins' }, [
        h('h3', ta('webui-page.accounts.loginsOf', { userId })),
        logins.value!.sessions.length === 0
          ? h('p', { class: 'muted' }, ta('webui-page.accounts.noLogins'))
          : h(
              'ul',
              { class: 'login-sessions plain-list' },
              logins.value!.sessions.map((login) => {
                const device = login.device ?? ta('webui-page.me.unknownDevice');
                return h('li', { key: login.id, class: 'login-session' }, [
                  h('div', { class: 'login-session-text' }, [
                    h('div', { class: 'login-device' }, device),
                    h('div', { class: 'muted' }, [
                      login.method ? `${ta(`webui-page.me.method.${login.method}`)} · ` : '',
                      ta('webui-page.me.lastUsedAt', {
                        time: new Date(login.lastUsedAt).toLocaleString(preferences.locale),
                      }),
                    ]),
                  ]),
                  h(
                    'button',
                    {
                      type: 'button',
                      class: 'button danger',
                      'aria-label': ta('webui-page.me.revokeOf', { device }),
                      disabled: busy.value,
                      onClick: () => void revoke(userId, login),
                    },
                    ta('webui-page.me.revoke'),
                  ),
                ]);
              }),
            ),
      ]);
    const create = async (event: Event) => {
      event.preventDefault();
      const { userId, displayName, level, password } = draft.value;
      const ok = await run(
        () =>
          props.client.request('admin.accounts.create', {
            userId: userId.trim(),
            ...(displayName.trim() !== '' ? { displayName: displayName.trim() } : {}),
            level: Number(level),
            ...(password !== '' ? { password } : {}),
          }),
        ta('webui-page.accounts.created', { userId: userId.trim() }),
      );
      if (ok) draft.value = emptyDraft();
    };
    const save = async (event: Event) => {
      event.preventDefault();
      const current = editing.value;
      if (!current) return;
      const before = accounts.value.find((account) => account.userId === current.userId);
      const { displayName, level, password } = current.draft;
      const params: ParamsOf<'admin.accounts.update'> = { userId: current.userId };
      if (before?.source === 'page' && displayName.trim() !== (before.displayName ?? '')) {
        params.displayName = displayName.trim() === '' ? null : displayName.trim();
      }
      if (!before?.owner && Number(level) !== before?.level) params.level = Number(level);
      if (current.removePassword) params.password = null;
      else if (password !== '') params.password = password;
      const ok = await run(
        () => props.client.request('admin.accounts.update', params),
        ta('webui-page.accounts.saved'),
      );
      if (ok) editing.value = undefined;
    };
    const input = (
      id: string,
      label: string,
      value: string,
      set: (value: string) => void,
      extra: Record<string, unknown> = {},
    ) => [
      h('label', { for: id }, label),
      h('input', {
        id,
        value,
        onInput: (event: Event) => set((event.target as HTMLInputElement).value),
        ...extra,
      }),
    ];

    const editor = (account: AccountView) => {
      const current = editing.value!;
      return h('form', { class: 'stacked-form account-editor', onSubmit: (event: Event) => void save(event) }, [
        h('h3', ta('webui-page.accounts.editOf', { userId: account.userId })),
        account.source === 'config' ? h('p', { class: 'muted' }, ta('webui-page.accounts.declaredNote')) : null,
        ...(account.source === 'page'
          ? input('edit-display-name', ta('webui-page.accounts.displayName'), current.draft.displayName, (value) => {
              current.draft.displayName = value;
            })
          : []),
        ...(account.owner
          ? []
          : input(
              'edit-level',
              ta('webui-page.accounts.level'),
              current.draft.level,
              (value) => {
                current.draft.level = value;
              },
              { type: 'number', min: 0, max: 1_000_000, step: 1 },
            )),
        ...input(
          'edit-password',
          ta('webui-page.accounts.newPassword'),
          current.draft.password,
          (value) => {
            current.draft.password = value;
          },
          { type: 'password', autocomplete: 'new-password', maxlength: 256, disabled: current.removePassword },
        ),
        account.hasPassword
          ? h('label', { class: 'checkbox' }, [
              h('input', {
                type: 'checkbox',
                checked: current.removePassword,
                onChange: (event: Event) => {
                  current.removePassword = (event.target as HTMLInputElement).checked;
                },
              }),
              ta('webui-page.accounts.removePassword'),
            ])
          : null,
        h('div', { class: 'form-actions' }, [
          h(
            'button',
            { type: 'submit', class: 'button primary', disabled: busy.value },
            ta('webui-page.accounts.save'),
          ),
          h(
            'button',
            { type: 'button', class: 'button', onClick: () => (editing.value = undefined) },
            ta('webui-page.accounts.cancel'),
          ),
        ]),
      ]);
    };

    return () =>
      h('section', { class: 'console-section', 'aria-labelledby': 'accounts-title', 'data-testid': 'accounts' }, [
        h('h2', { id: 'accounts-title' }, ta('webui-page.accounts')),
        errorAlert(problem.value),
        notice.value ? h('p', { class: 'muted', role: 'status' }, notice.value) : null,
        h(
          'ul',
          { class: 'account-list plain-list', 'aria-label': ta('webui-page.accounts.list') },
          accounts.value.map((account) =>
            h('li', { key: account.userId, class: 'account-row', 'data-account': account.userId }, [
              h('div', { class: 'account-main' }, [
                h('div', { class: 'account-name' }, [
                  h('strong', account.displayName),
                  account.displayName !== account.userId ? h('code', { class: 'muted' }, account.userId) : null,
                  account.owner ? h('span', { class: 'tag' }, ta('webui-page.accounts.owner')) : null,
                ]),
                h('div', { class: 'muted account-facts' }, [
                  ta('webui-page.accounts.levelIs', { level: account.owner ? '∞' : account.level }),
                  ' · ',
                  ta(`webui-page.accounts.source.${account.source}`),
                  ' · ',
                  account.hasPassword ? ta('webui-page.accounts.hasPassword') : ta('webui-page.accounts.noPassword'),
                  ' · ',
                  ta('webui-page.accounts.logins', { count: account.logins }),
                ]),
              ]),
              h('div', { class: 'account-actions' }, [
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'button',
                    'aria-label': ta('webui-page.accounts.loginsOf', { userId: account.userId }),
                    'aria-expanded': String(logins.value?.userId === account.userId),
                    onClick: () => void showLogins(account.userId),
                  },
                  ta('webui-page.accounts.showLogins'),
                ),
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'button',
                    'aria-label': ta('webui-page.accounts.editOf', { userId: account.userId }),
                    onClick: () =>
                      (editing.value = {
                        userId: account.userId,
                        removePassword: false,
                        draft: {
                          userId: account.userId,
                          displayName: account.source === 'page' ? account.displayName : '',
                          level: String(account.level),
                          password: '',
                        },
                      }),
                  },
                  ta('webui-page.accounts.edit'),
                ),
                account.source === 'page'
                  ? h(
                      'button',
                      {
                        type: 'button',
                        class: 'button danger',
                        'aria-label': ta('webui-page.accounts.deleteOf', { userId: account.userId }),
                        onClick: () => (deleting.value = account),
                      },
                      ta('webui-page.accounts.delete'),
                    )
                  : null,
              ]),
              editing.value?.userId === account.userId ? editor(account) : null,
              logins.value?.userId === account.userId ? loginList(account.userId) : null,
            ]),
          ),
        ),
        h(
          'form',
          {
            class: 'stacked-form account-create',
            'aria-labelledby': 'account-create-title',
            onSubmit: (event: Event) => void create(event),
          },
          [
            h('h3', { id: 'account-create-title' }, ta('webui-page.accounts.create')),
            ...input(
              'new-account-id',
              ta('webui-page.accounts.userId'),
              draft.value.userId,
              (value) => (draft.value.userId = value),
              {
                required: true,
                maxlength: 64,
                pattern: '[A-Za-z0-9._\\-]{1,64}',
                autocapitalize: 'none',
                spellcheck: 'false',
                'aria-describedby': 'new-account-id-hint',
              },
            ),
            h('small', { id: 'new-account-id-hint', class: 'muted' }, ta('webui-page.accounts.idHint')),
            ...input(
              'new-account-name',
              ta('webui-page.accounts.displayName'),
              draft.value.displayName,
              (value) => (draft.value.displayName = value),
              { maxlength: 64 },
            ),
            ...input(
              'new-account-level',
              ta('webui-page.accounts.level'),
              draft.value.level,
              (value) => (draft.value.level = value),
              { type: 'number', min: 0, max: 1_000_000, step: 1 },
            ),
            ...input(
              'new-account-password',
              ta('webui-page.accounts.password'),
              draft.value.password,
              (value) => (draft.value.password = value),
              {
                type: 'password',
                autocomplete: 'new-password',
                maxlength: 256,
                'aria-describedby': 'new-account-password-hint',
              },
            ),
            h('small', { id: 'new-account-password-hint', class: 'muted' }, ta('webui-page.accounts.passwordHint')),
            h(
              'button',
              { type: 'submit', class: 'button primary', disabled: busy.value },
              ta('webui-page.accounts.createSubmit'),
            ),
          ],
        ),
        deleting.value
          ? h(ConfirmDialog, {
              title: ta('webui-page.accounts.deleteOf', { userId: deleting.value.userId }),
              lines: [ta('webui-page.accounts.deleteConfirm', { userId: deleting.value.userId })],
              confirmLabel: ta('webui-page.accounts.delete'),
              onAnswer: (confirmed: boolean) => {
                const target = deleting.value;
                deleting.value = undefined;
                if (confirmed && target) {
                  void run(
                    () => props.client.request('admin.accounts.delete', { userId: target.userId }),
                    ta('webui-page.accounts.saved'),
                  );
                }
              },
            })
          : null,
      ]);
  },
});
