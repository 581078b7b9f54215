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
    // Why a login link or a frame could not be read: the {reason} of AALIS_WEBUI_LINK_INVALID / FRAME_MALFORMED.
    'sessionServer.problem.malformed': '格式不对',
    'sessionServer.problem.signature': '不是这台宿主签发的',
    'sessionServer.problem.unknown account': '账号不存在',
    'sessionServer.problem.no token': '没有带 token',
    'sessionServer.problem.not JSON': '不是 JSON',
    'sessionServer.problem.the body is not JSON': '请求体不是 JSON',
    'sessionServer.problem.not a JSON object': '不是 JSON 对象',
    'sessionServer.problem.id': '"id" 必须是 1 到 64 个字符的字符串',
    'sessionServer.problem.type': '"type" 必须是字符串',
    'sessionServer.problem.binary frames are not read': '不收二进制帧',
    'sessionServer.attachment.notObject': '不是对象',
    'sessionServer.attachment.type': 'type 应为 "image",实际为 {type}',
    'sessionServer.attachment.data': 'data 应为 base64 文本或 data: URL',
    'sessionServer.attachment.mimeType': 'mimeType 应为 {types} 之一',
    'sessionServer.attachment.base64': 'data 不是有效的 base64',
  },
  en: {
    'sessionServer.forbidden.session': 'this session is not yours',
    'sessionServer.forbidden.owner': 'only an owner can do this',
    'sessionServer.forbidden.stop': 'Only the people taking part in this turn and the owner can stop it',
    'sessionServer.page.notBuiltTitle': 'WebUI not built',
    'sessionServer.page.notBuilt':
      'The session server runs, but no built page was found. Build @aalis/plugin-webui (npm run build:page -w @aalis/plugin-webui), or name a page directory in plugins.session-server.webRoot.',
    'sessionServer.started': 'Session server listening on {url}',
    'sessionServer.problem.malformed': 'malformed',
    'sessionServer.problem.signature': 'not signed by this host',
    'sessionServer.problem.unknown account': 'unknown account',
    'sessionServer.problem.no token': 'no token',
    'sessionServer.problem.not JSON': 'not JSON',
    'sessionServer.problem.the body is not JSON': 'the body is not JSON',
    'sessionServer.problem.not a JSON object': 'not a JSON object',
    'sessionServer.problem.id': '"id" must be a string of 1 to 64 characters',
    'sessionServer.problem.type': '"type" must be a string',
    'sessionServer.problem.binary frames are not read': 'binary frames are not read',
    'sessionServer.attachment.notObject': 'not an object',
    'sessionServer.attachment.type': 'type must be "image", not {type}',
    'sessionServer.attachment.data': 'data must be base64 text or a data: URL',
    'sessionServer.attachment.mimeType': 'mimeType must be one of {types}',
    'sessionServer.attachment.base64': 'data is not valid base64',
  },
});
