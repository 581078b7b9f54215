// The session server's fixed texts (zh-CN and en).
import { defineCatalogue } from '@aalis/core';

export const serverTexts = defineCatalogue({
  'zh-CN': {
    'sessionServer.forbidden.session': '这个会话不是你的',
    'sessionServer.forbidden.owner': '只有 owner 能做这件事',
    // The stop key answers as /stop does (plugin-agent.zh.md 「指令」).
    'sessionServer.forbidden.stop': '只有参与这一轮的人和 owner 能停',
    'sessionServer.page.notBuiltTitle': 'WebUI 还没有构建',
    'sessionServer.page.notBuilt':
      '会话服务器在运行,但找不到构建好的页面。请构建 @aalis/plugin-webui(npm run build:page -w @aalis/plugin-webui),或在 plugins.session-server.webRoot 指定页面目录。',
    'sessionServer.started': '会话服务器在 {url} 上监听',
  },
  en: {
    'sessionServer.forbidden.session': 'this session is not yours',
    'sessionServer.forbidden.owner': 'only an owner can do this',
    'sessionServer.forbidden.stop': 'Only the people taking part in this turn and the owner can stop it',
    'sessionServer.page.notBuiltTitle': 'WebUI not built',
    'sessionServer.page.notBuilt':
      'The session server runs, but no built page was found. Build @aalis/plugin-webui (npm run build:page -w @aalis/plugin-webui), or name a page directory in plugins.session-server.webRoot.',
    'sessionServer.started': 'Session server listening on {url}',
  },
});
