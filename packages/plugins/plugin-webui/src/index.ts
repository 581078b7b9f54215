// @aalis/plugin-webui: the WebUI page (Vue 3, built with Vite into dist/page) and where the session server finds
// it. The page itself lives in src/page and talks to the server only through @aalis/session-client.
export { buildWebuiPage, PAGE_OUT_DIR, PAGE_SOURCE_DIR, pageIsStale } from './build-page.js';
export { webuiPageDir } from './webui-page-dir.js';
