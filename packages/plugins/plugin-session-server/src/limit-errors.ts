// The coded errors of the host's bounds (docs/session-protocol.md 「Bounds」, docs/decisions/session-server-bounds.md):
// what was too much, the limit, and what to do — never a 500, never a silent drop.
import { defineErrors } from '@aalis/core';

export const limitErrors = defineErrors({
  AALIS_WEBUI_JSON_TOO_DEEP: {
    statusCode: 400,
    en: 'The JSON nests deeper than {limit} levels of objects and arrays; nothing was done. Send flatter data.',
    'zh-CN': '这段 JSON 的对象与数组嵌套超过 {limit} 层，什么也没做。请发送层次更浅的数据。',
  },
  AALIS_WEBUI_TOO_MANY_SOCKETS: {
    statusCode: 429,
    en: 'This login already has {count} open sockets (at most {limit}). Close other tabs or windows of the WebUI, then reload.',
    'zh-CN': '这个登录已经开着 {count} 个连接（最多 {limit} 个）。请关掉 WebUI 的其他标签页或窗口，再刷新。',
  },
  AALIS_WEBUI_TOO_MANY_CONNECTIONS: {
    statusCode: 429,
    en: 'Your address already has {count} open connections to this host (at most {limit}). Close some, then try again.',
    'zh-CN': '你的地址已经对这台宿主开着 {count} 个连接（最多 {limit} 个）。请关掉一些再试。',
  },
  AALIS_WEBUI_TOO_MANY_REQUESTS: {
    statusCode: 429,
    en: 'This login already has {count} requests in progress (at most {limit}); this one was not run. Wait for the others to be answered, then send it again.',
    'zh-CN': '这个登录已有 {count} 个请求在处理（最多 {limit} 个），这个没有执行。请等其他请求有了回答再发一次。',
  },
  AALIS_WEBUI_QUEUE_FULL: {
    statusCode: 429,
    en: '{count} messages already wait in this session (at most {limit}); this one was not sent. Wait for the running turn to take them, or stop it.',
    'zh-CN':
      '这个会话里已有 {count} 条消息在等待（最多 {limit} 条），这条没有发出。请等正在进行的一轮处理它们，或先停下它。',
  },
  AALIS_WEBUI_NOT_STORED: {
    statusCode: 503,
    en: 'The message could not be stored, so it was not sent and nothing will answer it (the host log says why). Send it again once the host can write its database: free disk space, or bring the database server back.',
    'zh-CN':
      '这条消息没能存下，所以没有发出，也不会有回复（原因见宿主日志）。等主机能写数据库后再发一次：腾出磁盘空间，或让数据库服务器恢复。',
  },
});
