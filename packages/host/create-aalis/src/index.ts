// create-aalis: `npm create aalis@latest my-bot` — a new Aalis deployment from a template, installed and ready for
// `npm start`.
export { type CreateIo, main, ownVersion } from './create-aalis.js';
export { type CreateRequest, parseCreateArguments } from './create-arguments.js';
export { installProject, writeProject } from './create-project.js';
export { createTexts } from './create-texts.js';
export {
  configText,
  manifest,
  PLATFORM_NAMES,
  type PlatformName,
  type ProjectOptions,
  packageNameFor,
  readmeText,
  TEMPLATE_NAMES,
  type TemplateName,
} from './templates.js';
