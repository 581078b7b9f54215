// The login page's account and password form (beside the one-time link): POST /api/v1/login with the account and
// password; a refusal shows the server's sentence (wrong password, or when to retry) with its code.
import type { SessionClient } from '@aalis/session-client';
import { defineComponent, h, type PropType, ref } from 'vue';
import { ta } from '../console-accounts-texts.js';
import { codedErrorNodes } from './coded-error.js';
import '../console-accounts.css';

export const LoginForm = defineComponent({
  name: 'LoginForm',
  props: {
    client: { type: Object as PropType<SessionClient>, required: true },
    onLoggedIn: { type: Function as PropType<() => void>, required: true },
  },
  setup(props) {
    const account = ref('');
    const password = ref('');
    const busy = ref(false);
    const failure = ref<{ code?: string; message: string } | undefined>();
    const submit = async (event: Event) => {
      event.preventDefault();
      if (busy.value) return;
      busy.value = true;
      failure.value = undefined;
      try {
        await props.client.loginWithPassword(account.value.trim(), password.value);
        password.value = '';
        props.onLoggedIn();
      } catch (error) {
        const { code, message } = error as { code?: unknown; message?: unknown };
        failure.value = {
          message: typeof message === 'string' ? message : String(error),
          ...(typeof code === 'string' ? { code } : {}),
        };
        password.value = '';
      } finally {
        busy.value = false;
      }
    };
    return () =>
      h('form', { class: 'login-form', 'data-testid': 'login-form', onSubmit: submit }, [
        h('p', { class: 'muted' }, ta('webui-page.login.passwordHint')),
        h('label', { for: 'login-account' }, ta('webui-page.login.account')),
        h('input', {
          id: 'login-account',
          name: 'username',
          autocomplete: 'username',
          autocapitalize: 'none',
          spellcheck: 'false',
          required: true,
          maxlength: 64,
          value: account.value,
          onInput: (event: Event) => (account.value = (event.target as HTMLInputElement).value),
        }),
        h('label', { for: 'login-password' }, ta('webui-page.login.password')),
        h('input', {
          id: 'login-password',
          name: 'password',
          type: 'password',
          autocomplete: 'current-password',
          required: true,
          maxlength: 256,
          value: password.value,
          onInput: (event: Event) => (password.value = (event.target as HTMLInputElement).value),
        }),
        failure.value
          ? h(
              'p',
              { class: 'setting-error', role: 'alert', 'data-testid': 'password-login-error' },
              codedErrorNodes(failure.value.message, failure.value.code),
            )
          : null,
        h(
          'button',
          { type: 'submit', class: 'button primary', disabled: busy.value },
          busy.value ? ta('webui-page.login.busy') : ta('webui-page.login.submit'),
        ),
      ]);
  },
});
