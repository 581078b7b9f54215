// @aalis/plugin-platform-satori: every platform a Satori server bridges, through the Satori protocol.
export { SatoriApi } from './satori-api.js';
export { satoriConfigSchema, satoriConfigured } from './satori-config.js';
export { readContent, writeContent } from './satori-elements.js';
export { default, SATORI_PLATFORM } from './satori-platform.js';
export { satoriErrors } from './satori-texts.js';
