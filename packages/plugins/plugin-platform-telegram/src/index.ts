// @aalis/plugin-platform-telegram: Telegram through the Bot API.
export { TelegramApi, type TelegramApiOptions } from './telegram-api.js';
export { type TelegramConfig, telegramConfigSchema, telegramConfigured } from './telegram-config.js';
export { telegramErrors } from './telegram-errors.js';
export { displayNameOf, readMessage, type TelegramMessage } from './telegram-inbound.js';
export { markdownToTelegramHtml } from './telegram-markdown.js';
export { default, TELEGRAM_PLATFORM } from './telegram-platform.js';
