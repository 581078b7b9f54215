// The coded errors of the session protocol (docs/session-protocol.md 「Error codes」), each with its HTTP status.
// Nothing is done when one is answered; none carries a token, a cookie or message content.
import { AalisError, defineErrors, type Locale, translate } from '@aalis/core';
import type { ProtocolError } from '@aalis/session-client';
import './server-texts.js';
import { storageFailure } from './storage-failure.js';

export const serverErrors = defineErrors({
  AALIS_WEBUI_LOGIN_REQUIRED: {
    statusCode: 401,
    en: 'Not logged in. Open the login link the host printed at start, or run `aalis webui-link` for a fresh one.',
    'zh-CN': '还没有登录。请打开宿主启动时打印的登录链接，或运行 `aalis webui-link` 取一个新的。',
  },
  AALIS_WEBUI_LOGIN_EXPIRED: {
    statusCode: 401,
    en: 'This login has expired or was logged out. Run `aalis webui-link` for a fresh login link.',
    'zh-CN': '这次登录已过期或已退出。请运行 `aalis webui-link` 取一个新的登录链接。',
  },
  AALIS_WEBUI_LINK_INVALID: {
    statusCode: 401,
    en: 'This login link is not valid here ({reason}). Run `aalis webui-link` on the machine that runs the host for a fresh one.',
    'zh-CN': '这个登录链接在这里无效（{reason}）。请在运行宿主的机器上运行 `aalis webui-link` 取一个新的。',
  },
  AALIS_WEBUI_LINK_EXPIRED: {
    statusCode: 401,
    en: 'This login link expired (links are valid for {minutes} minutes). Run `aalis webui-link` for a fresh one.',
    'zh-CN': '这个登录链接已过期（链接 {minutes} 分钟内有效）。请运行 `aalis webui-link` 取一个新的。',
  },
  AALIS_WEBUI_LINK_USED: {
    statusCode: 401,
    en: 'This login link was used already; each link works once. Run `aalis webui-link` for a fresh one.',
    'zh-CN': '这个登录链接已经用过了，每个链接只能用一次。请运行 `aalis webui-link` 取一个新的。',
  },
  AALIS_WEBUI_ORIGIN_REFUSED: {
    statusCode: 403,
    en: 'Refused: the request comes from origin "{origin}", not from this server ({expected}). Open the WebUI at its own address.',
    'zh-CN': '已拒绝：请求来自「{origin}」，不是本服务器（{expected}）。请在 WebUI 自己的地址打开它。',
  },
  AALIS_WEBUI_HOST_REFUSED: {
    statusCode: 403,
    en: 'Refused: "{host}" is not this server\'s address. Use {expected}, or add the name to plugins.session-server.allowedHosts.',
    'zh-CN':
      '已拒绝：「{host}」不是本服务器的地址。请用 {expected}，或把这个名字加进 plugins.session-server.allowedHosts。',
  },
  AALIS_WEBUI_CSRF_REFUSED: {
    statusCode: 403,
    en: 'Refused: a POST needs the X-Aalis-Csrf header with the csrfToken from GET /api/v1/me.',
    'zh-CN': '已拒绝：POST 请求要带 X-Aalis-Csrf 头，值为 GET /api/v1/me 给的 csrfToken。',
  },
  AALIS_WEBUI_FORBIDDEN: {
    statusCode: 403,
    en: 'Not allowed: {reason}.',
    'zh-CN': '不允许：{reason}。',
  },
  AALIS_WEBUI_FRAME_MALFORMED: {
    statusCode: 400,
    en: 'The frame could not be read: {reason}. Send a JSON object with a string "id" and "type".',
    'zh-CN': '读不了这一帧：{reason}。请发一个带字符串 "id" 与 "type" 的 JSON 对象。',
  },
  AALIS_WEBUI_FRAME_TOO_LARGE: {
    statusCode: 413,
    en: 'The frame has {size} bytes; at most {limit} are accepted. Send smaller attachments.',
    'zh-CN': '这一帧有 {size} 字节，最多收 {limit} 字节。请发小一些的附件。',
  },
  AALIS_WEBUI_UNKNOWN_REQUEST: {
    statusCode: 400,
    en: 'There is no request type "{type}". Known types: {known}.',
    'zh-CN': '没有请求类型「{type}」。已有的类型：{known}。',
  },
  AALIS_WEBUI_BAD_REQUEST: {
    statusCode: 400,
    en: 'Request "{type}": {problems}.',
    'zh-CN': '请求「{type}」：{problems}。',
  },
  AALIS_WEBUI_MESSAGE_TOO_LONG: {
    statusCode: 413,
    en: 'The message has {length} characters; at most {limit} are accepted. Nothing was sent; shorten it or split it.',
    'zh-CN': '这条消息有 {length} 个字符，最多收 {limit} 个。没有发出；请缩短或分成几条。',
  },
  AALIS_WEBUI_ROOM_READ_ONLY: {
    statusCode: 409,
    en: 'This is a {platform} room: its history is read-only in the WebUI. Talk to her in the room itself; stopping a turn and the settings work here.',
    'zh-CN':
      '这是 {platform} 的群聊或私聊：它的历史在 WebUI 里只能查看。请在那边和她说话；停下一轮与设置在这里照样可用。',
  },
  AALIS_WEBUI_MESSAGE_EMPTY: {
    statusCode: 400,
    en: 'The message is empty. Write some text or attach an image.',
    'zh-CN': '消息是空的。请写点文字或附一张图。',
  },
  AALIS_WEBUI_ATTACHMENT_TOO_LARGE: {
    statusCode: 413,
    en: 'Attachment {index} has {size} bytes; at most {limit} are accepted. Nothing was sent; attach a smaller image.',
    'zh-CN': '第 {index} 个附件有 {size} 字节，最多收 {limit} 字节。没有发出；请附一张小一些的图。',
  },
  AALIS_WEBUI_ATTACHMENT_INVALID: {
    statusCode: 400,
    en: 'Attachment {index}: {reason}. Attach PNG, JPEG, GIF or WebP images as base64.',
    'zh-CN': '第 {index} 个附件：{reason}。请以 base64 附 PNG、JPEG、GIF 或 WebP 图片。',
  },
  AALIS_WEBUI_TOO_MANY_ATTACHMENTS: {
    statusCode: 413,
    en: 'The message has {count} attachments; at most {limit} are accepted. Nothing was sent.',
    'zh-CN': '这条消息有 {count} 个附件，最多收 {limit} 个。没有发出。',
  },
  AALIS_WEBUI_SESSION_UNKNOWN: {
    statusCode: 404,
    en: 'There is no session "{sessionId}". It may have been deleted; list the sessions again.',
    'zh-CN': '没有会话「{sessionId}」。它可能已被删除；请重新列出会话。',
  },
  AALIS_WEBUI_TURN_RUNNING: {
    statusCode: 409,
    en: 'A turn is running in this session, so nothing was rolled back. Stop it or wait for it to end, then try again.',
    'zh-CN': '这个会话里正有一轮在进行，所以没有回滚。请先停下它或等它结束，再试一次。',
  },
  AALIS_WEBUI_TURN_COMPRESSED: {
    statusCode: 409,
    en: 'This turn is before the last compression divider: it was summarised and cannot be edited, regenerated or retried. Act on a turn after the divider.',
    'zh-CN': '这一轮在最近的压缩分隔线之前：它已被压缩成摘要，不能再编辑、重新生成或重试。请对分隔线之后的回合操作。',
  },
  AALIS_WEBUI_TURN_UNKNOWN: {
    statusCode: 404,
    en: 'This session has no turn "{turnId}" in its current history (it may have been replaced or cleared). Reload the conversation.',
    'zh-CN': '这个会话当前的历史里没有回合「{turnId}」（它可能已被替换或清空）。请重新载入对话。',
  },
  AALIS_WEBUI_TURN_NOT_FAILED: {
    statusCode: 409,
    en: 'Only a turn that failed or was stopped can be retried; this one did not. Use Regenerate for a new reply.',
    'zh-CN': '只有出错或被停下的回合才能重试，这一轮不是。要换一个回复，请用“重新生成”。',
  },
  AALIS_WEBUI_EXPORT_TOO_LARGE: {
    statusCode: 413,
    en: 'This session has {count} stored messages; an export takes at most {limit}. Nothing was exported.',
    'zh-CN': '这个会话存有 {count} 条消息，导出最多 {limit} 条。没有导出。',
  },
  AALIS_WEBUI_NOT_FOUND: {
    statusCode: 404,
    en: 'Nothing at "{path}".',
    'zh-CN': '「{path}」这里什么也没有。',
  },
  AALIS_WEBUI_UNAVAILABLE: {
    statusCode: 503,
    en: 'The "{service}" service is not running, so this cannot be done now. See the plugin states in the admin area.',
    'zh-CN': '「{service}」服务没有在运行，现在做不了。请在管理页查看插件状态。',
  },
  AALIS_WEBUI_LISTEN_FAILED: {
    statusCode: 500,
    en: 'The session server could not listen on {host}:{port} ({reason}). Set AALIS_WEBUI_PORT (or webui.port) to a free port, or 0 for any free one.',
    'zh-CN':
      '会话服务器无法在 {host}:{port} 上监听（{reason}）。请把 AALIS_WEBUI_PORT（或 webui.port）设成空闲的端口，或设 0 取任一空闲端口。',
  },
  AALIS_WEBUI_HOST_UNAVAILABLE: {
    statusCode: 500,
    en: 'The session server could not listen on {host}:{port} ({reason}): "{host}" is not an address of this machine. Set AALIS_WEBUI_HOST (or webui.host) to 127.0.0.1, 0.0.0.0 or one of its addresses.',
    'zh-CN':
      '会话服务器无法在 {host}:{port} 上监听（{reason}）：「{host}」不是本机的地址。请把 AALIS_WEBUI_HOST（或 webui.host）设成 127.0.0.1、0.0.0.0 或本机的某个地址。',
  },
  AALIS_WEBUI_STORAGE_UNAVAILABLE: {
    statusCode: 503,
    en: 'The database cannot be used right now ({reason}), so this was not done. Try again in a moment: the host reconnects by itself; if it lasts, the host log says why (a database server that is down, a full disk).',
    'zh-CN':
      '数据库现在用不了（{reason}），这次操作没有完成。请稍后再试：宿主会自己重新连上；如果一直这样，原因见宿主日志（数据库服务器停了，或磁盘满了）。',
  },
  AALIS_WEBUI_INTERNAL: {
    statusCode: 500,
    en: 'The server failed unexpectedly; the log has the details.',
    'zh-CN': '服务器意外出错；详情见日志。',
  },
});

export type ServerErrorCode = keyof typeof serverErrors;

/** Errors whose message is written for the locale they are answered in (params.ts badParam). */
export const localizedMessages = new WeakMap<AalisError, (locale: Locale) => string>();

export type LinkProblem = 'malformed' | 'signature' | 'unknown account' | 'no token';
export type FrameProblem =
  | 'not JSON'
  | 'the body is not JSON'
  | 'not a JSON object'
  | 'id'
  | 'type'
  | 'binary frames are not read';

/** The {reason} in the host's locale for the message; `details.reason` stays the English text clients may match. */
function reasonOf(problem: LinkProblem | FrameProblem, locale: Locale) {
  const ref = { key: `sessionServer.problem.${problem}` };
  return [{ reason: translate(ref, locale) }, { details: { reason: translate(ref, 'en') } }] as const;
}

export function linkInvalid(problem: LinkProblem, locale: Locale): AalisError {
  return serverErrors.AALIS_WEBUI_LINK_INVALID(...reasonOf(problem, locale));
}

export function frameMalformed(problem: FrameProblem, locale: Locale): AalisError {
  return serverErrors.AALIS_WEBUI_FRAME_MALFORMED(...reasonOf(problem, locale));
}

/** The protocol form of any error: coded AalisErrors keep their code and details, anything else is INTERNAL. */
export function toProtocolError(error: unknown, locale: Locale): { error: ProtocolError; status: number } {
  if (AalisError.isInstance(error)) {
    const details = safeDetails(error.details);
    return {
      error: {
        code: error.code,
        message: localizedMessages.get(error)?.(locale) ?? error.localized(locale),
        ...(details ? { details } : {}),
      },
      status: error.statusCode ?? 400,
    };
  }
  // The database gone or full is not a bug: the client is told to try again, with what went wrong (a code only).
  const reason = storageFailure(error);
  if (reason !== undefined) {
    const unavailable = serverErrors.AALIS_WEBUI_STORAGE_UNAVAILABLE({ reason });
    return {
      error: { code: unavailable.code, message: unavailable.localized(locale), details: { reason } },
      status: 503,
    };
  }
  const internal = serverErrors.AALIS_WEBUI_INTERNAL();
  return { error: { code: internal.code, message: internal.localized(locale) }, status: 500 };
}

/** Details that are plain data (no causes, no functions). */
function safeDetails(details: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(details).filter(
    ([, value]) => value === null || ['string', 'number', 'boolean'].includes(typeof value) || Array.isArray(value),
  );
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
