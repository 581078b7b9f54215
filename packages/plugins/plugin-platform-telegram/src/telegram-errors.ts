// Coded errors of the Telegram platform. None of them ever carries the bot token.
import { defineErrors } from '@aalis/core';

export const telegramErrors = defineErrors({
  AALIS_TELEGRAM_API_FAILED: {
    en: 'Telegram Bot API {method} failed: {status} {description}.',
    'zh-CN': 'Telegram Bot API {method} 失败：{status} {description}。',
  },
  AALIS_TELEGRAM_UNREACHABLE: {
    en: 'Telegram Bot API {method} could not be reached at {apiRoot}: {reason}. It is retried; check plugins.platform-telegram.apiRoot and the network.',
    'zh-CN':
      '连不上 Telegram Bot API（{apiRoot}）调用 {method}：{reason}。会重试；请检查 plugins.platform-telegram.apiRoot 与网络。',
    isRetryable: true,
  },
  AALIS_TELEGRAM_TOKEN_REJECTED: {
    en: 'Telegram refused the bot token (401 Unauthorized). Set plugins.platform-telegram.token to the token @BotFather gave you (on the WebUI’s Platforms page it applies at once; in the file, restart); until then it is tried again at growing pauses (up to 10 minutes).',
    'zh-CN':
      'Telegram 不认这个机器人令牌（401 Unauthorized）。请把 plugins.platform-telegram.token 设成 @BotFather 给的令牌（在 WebUI 的「平台」页保存立即生效；改文件则需重启）；在此之前会以逐渐拉长的间隔（最长 10 分钟）再试。',
  },
  AALIS_TELEGRAM_TOKEN_MISSING: {
    en: 'No Telegram bot token is set: nothing is polled. Set plugins.platform-telegram.token to the token @BotFather gave you.',
    'zh-CN':
      '没有设置 Telegram 机器人令牌，不会收消息。请把 plugins.platform-telegram.token 设成 @BotFather 给的令牌。',
  },
  AALIS_TELEGRAM_UPDATE_NOT_STORED: {
    en: 'A Telegram message (update {updateId}, chat {chat}) could not be stored for {minutes} minutes and is given up: the poller confirms it to Telegram and goes on with the later ones. Check the database (disk space, PostgreSQL) and the log lines before this one.',
    'zh-CN':
      '一条 Telegram 消息（更新 {updateId}，聊天 {chat}）{minutes} 分钟内都没能存下，已放弃：向 Telegram 确认它并继续处理之后的消息。请检查数据库（磁盘空间、PostgreSQL）和此前的日志。',
  },
  AALIS_TELEGRAM_UPDATE_MALFORMED: {
    en: 'A Telegram update was malformed and was skipped: {reason}',
    'zh-CN': '一条 Telegram 更新格式不对，已跳过：{reason}',
  },
});
