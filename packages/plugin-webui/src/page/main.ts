// The WebUI's entry: one SessionClient on the page's own origin, the AppModel over it, the Vue app rendering it.
import { SessionClient } from '@aalis/session-client';
import { createApp, h } from 'vue';
import { AppShell } from './components/app-shell.js';
import { AppModel } from './model/app-model.js';
import './styles.css';

const client = new SessionClient();
const app = new AppModel(client, {
  search: () => location.search,
  replace: (search) =>
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`),
});
createApp({ render: () => h(AppShell, { app }) }).mount('#app');
void app.start();
