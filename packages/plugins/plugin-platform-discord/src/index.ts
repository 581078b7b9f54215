// @aalis/plugin-platform-discord: Discord through its gateway and REST API.
export { discordConfigSchema, discordConfigured } from './discord-config.js';
export { readMessage, toDiscordMarkdown } from './discord-content.js';
export { DISCORD_PLATFORM, default } from './discord-platform.js';
export { discordErrors } from './discord-texts.js';
