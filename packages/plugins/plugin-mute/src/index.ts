// @aalis/plugin-mute: 禁言 (mute) — /mute [duration], /unmute and mute keywords; persisted and shared across
// processes through the storage engine's database.
export { default, MUTE_PLUGIN, muteConfigSchema } from './mute-plugin.js';
export { type MuteRow, type MuteStore, postgresMuteStore, sqliteMuteStore } from './mute-store.js';
export { muteErrors, muteTexts } from './mute-texts.js';
export { MUTE_SIGNAL, Mutes } from './mutes.js';
export { parseDuration } from './parse-duration.js';
