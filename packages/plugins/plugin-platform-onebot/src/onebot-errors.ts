// Coded errors of the OneBot v11 platform.
import { defineErrors } from '@aalis/core';

export const onebotErrors = defineErrors({
  AALIS_ONEBOT_NOT_CONNECTED: {
    en: 'OneBot API call {action} failed: no connection to the OneBot implementation ({endpoint}). It is retried automatically; check that NapCat/Lagrange/go-cqhttp runs and the url and accessToken match.',
    'zh-CN':
      'OneBot 接口调用 {action} 失败：没有连上 OneBot 实现（{endpoint}）。会自动重连；请确认 NapCat/Lagrange/go-cqhttp 在运行，url 与 accessToken 一致。',
    isRetryable: true,
  },
  AALIS_ONEBOT_API_TIMEOUT: {
    en: 'OneBot API call {action} got no answer within {timeoutMs} ms (plugins.platform-onebot.apiTimeoutMs).',
    'zh-CN': 'OneBot 接口调用 {action} 在 {timeoutMs} 毫秒内没有回应（plugins.platform-onebot.apiTimeoutMs）。',
    isRetryable: true,
  },
  AALIS_ONEBOT_API_FAILED: {
    en: 'OneBot API call {action} failed: status {status}, retcode {retcode}{detail}.',
    'zh-CN': 'OneBot 接口调用 {action} 失败：status {status}，retcode {retcode}{detail}。',
  },
  AALIS_ONEBOT_FORWARD_TIMEOUT: {
    en: 'A reply or an API call was handed to the process running the OneBot connection ({name}), but no outcome came within {timeoutMs} ms. Check that one process logs "this process runs the connection" and can reach the database.',
    'zh-CN':
      '回复或接口调用已交给运行 OneBot 连接的进程（{name}），但 {timeoutMs} 毫秒内没有结果。请确认有一个进程的日志写着 "this process runs the connection"，并且它连得上数据库。',
    isRetryable: true,
  },
  AALIS_ONEBOT_TOKEN_REFUSED: {
    en: 'The OneBot implementation at {endpoint} refused the connection (HTTP {status}): the access token does not match. Set plugins.platform-onebot.accessToken to the token configured in NapCat/Lagrange/go-cqhttp. Retrying in {delayMs} ms.',
    'zh-CN':
      'OneBot 实现（{endpoint}）拒绝了连接（HTTP {status}）：access token 不对。请把 plugins.platform-onebot.accessToken 设成 NapCat/Lagrange/go-cqhttp 里配置的 token。{delayMs} 毫秒后重试。',
    isRetryable: true,
  },
  AALIS_ONEBOT_CONNECT_FAILED: {
    en: 'Cannot connect to the OneBot implementation at {endpoint}: {reason}. It is retried automatically; check that NapCat/Lagrange/go-cqhttp runs with its WebSocket server on and that plugins.platform-onebot.url points at it.',
    'zh-CN':
      '连不上 OneBot 实现（{endpoint}）：{reason}。会自动重试；请确认 NapCat/Lagrange/go-cqhttp 在运行、开启了 WebSocket 服务，并且 plugins.platform-onebot.url 指向它。',
    isRetryable: true,
  },
  AALIS_ONEBOT_CONNECTION_LOST: {
    en: 'The connection to the OneBot implementation ({endpoint}) was lost; waiting for it again.',
    'zh-CN': '与 OneBot 实现（{endpoint}）的连接断开了，正在等它恢复。',
    isRetryable: true,
  },
  AALIS_ONEBOT_CLIENT_TOKEN_REFUSED: {
    en: 'An implementation tried to connect to {endpoint} with a wrong or missing access token and was refused. Set the same token in NapCat/Lagrange/go-cqhttp and in plugins.platform-onebot.accessToken.',
    'zh-CN':
      '有 OneBot 实现带着错误的或缺少的 access token 连接 {endpoint}，已拒绝。请在 NapCat/Lagrange/go-cqhttp 和 plugins.platform-onebot.accessToken 里设成同一个 token。',
  },
  AALIS_ONEBOT_SIGNATURE_INVALID: {
    en: 'An event POST to {endpoint} had no valid X-Signature and was refused (401). Set the same secret in the implementation’s HTTP POST settings and in plugins.platform-onebot.secret.',
    'zh-CN':
      '发到 {endpoint} 的事件 POST 没有正确的 X-Signature，已拒绝（401）。请在 OneBot 实现的 HTTP POST 设置和 plugins.platform-onebot.secret 里设成同一个 secret。',
  },
  AALIS_ONEBOT_EVENT_MALFORMED: {
    en: 'A OneBot event was malformed and was skipped: {reason}',
    'zh-CN': '一条 OneBot 事件格式不对，已跳过：{reason}',
  },
  AALIS_ONEBOT_CONFIG_INVALID: {
    en: 'plugins.platform-onebot: {problem}',
    'zh-CN': 'plugins.platform-onebot:{problem}',
  },
});
