// The WebUI's entry: one SessionClient on the page's own origin, the AppModel over it, the Vue app rendering it.
import { SessionClient } from '@aalis/session-client';
import { createApp, h } from 'vue';
import { AppShell } from './components/app-shell.js';
import { AppModel } from './model/app-model.js';
import { browserLanguage, preferences } from './page-preferences.js';
import './styles.css';

// The server writes its texts (errors, setting names, usage rows, notices) in the page's language: the one the
// reader picked, else the browser's, else the host's (the page follows the server's answer, see hostLocale).
const asked = preferences.chosenLocale ? preferences.locale : browserLanguage;
const client = new SessionClient(asked ? { locale: asked } : {});
const app = new AppModel(client, {
  search: () => location.search,
  replace: (search) =>
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`),
});
createApp({ render: () => h(AppShell, { app }) }).mount('#app');
void app.start();
