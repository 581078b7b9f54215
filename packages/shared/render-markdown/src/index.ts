// @aalis/render-markdown: a model's text as sanitised HTML for chat views (Pling's docks, the Aalis WebUI).
// Framework-free and browser-safe; see README.md for the stable API.
export { RenderMarkdownError, type RenderMarkdownErrorCode } from './errors.js';
export { mendTableSeparators, tableCells } from './mend-table-separators.js';
export {
  ALLOWED_TAGS,
  type RenderMarkdownOptions,
  renderMarkdown,
  renderMarkdownFragment,
} from './render-markdown.js';
export { renderMarkdownInto } from './render-markdown-into.js';
