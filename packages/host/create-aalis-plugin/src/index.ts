// create-aalis-plugin: `npm create aalis-plugin@latest my-plugin` — a new Aalis plugin package with a test harness.
export { type CreatePluginIo, coreRange, main, pluginFiles } from './create-aalis-plugin.js';
export { pluginTemplateTexts } from './plugin-texts.js';
