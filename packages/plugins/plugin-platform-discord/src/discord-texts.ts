// Coded errors of the Discord adapter and every fixed text it puts into what she or people read, in zh-CN and en.
import { defineCatalogue, defineErrors } from '@aalis/core';

export const discordErrors = defineErrors({
  AALIS_DISCORD_API_FAILED: {
    en: 'Discord answered {route} with {status}: {reason}',
    'zh-CN': 'Discord 对 {route} 的回应是 {status}：{reason}',
  },
  AALIS_DISCORD_TOKEN_REJECTED: {
    en: 'Discord refused the bot token ({reason}). Set plugins.platform-discord.token to the token of your application’s bot (Developer Portal → Bot → Reset Token).',
    'zh-CN':
      'Discord 拒绝了机器人令牌（{reason}）。请把 plugins.platform-discord.token 设成你的应用的机器人令牌（开发者门户 → Bot → Reset Token）。',
  },
  AALIS_DISCORD_INTENTS_REFUSED: {
    en: 'Discord refused the gateway intents ({reason}): turn on MESSAGE CONTENT INTENT under Developer Portal → your application → Bot → Privileged Gateway Intents.',
    'zh-CN':
      'Discord 拒绝了网关意图（{reason}）：请在开发者门户 → 你的应用 → Bot → Privileged Gateway Intents 打开 MESSAGE CONTENT INTENT。',
  },
  AALIS_DISCORD_UNREACHABLE: {
    en: 'Cannot reach Discord at {apiBase}: {reason}. It is retried; check the network and plugins.platform-discord.apiBase.',
    'zh-CN': '连不上 Discord（{apiBase}）：{reason}。会重试；请检查网络和 plugins.platform-discord.apiBase。',
    isRetryable: true,
  },
  AALIS_DISCORD_CONNECTION_LOST: {
    en: 'The Discord gateway connection closed ({code}); resuming.',
    'zh-CN': 'Discord 网关连接断开了（{code}），正在恢复。',
    isRetryable: true,
  },
  AALIS_DISCORD_TOKEN_MISSING: {
    en: 'No Discord bot token is set: nothing is connected. Set plugins.platform-discord.token to your bot’s token.',
    'zh-CN': '没有设置 Discord 机器人令牌，不会连接。请把 plugins.platform-discord.token 设成你的机器人令牌。',
  },
  AALIS_DISCORD_EVENT_MALFORMED: {
    en: 'A Discord gateway event was malformed and was skipped: {reason}',
    'zh-CN': '一条 Discord 网关事件格式不对，已跳过：{reason}',
  },
});

defineCatalogue({
  'zh-CN': {
    'discord.attachment': '[附件：{name}]',
    'discord.sticker': '[贴纸：{name}]',
    'discord.command.done': '已完成。',
    'discord.command.argument': '命令后面的参数',
  },
  en: {
    'discord.attachment': '[attachment: {name}]',
    'discord.sticker': '[sticker: {name}]',
    'discord.command.done': 'Done.',
    'discord.command.argument': 'What follows the command',
  },
});
