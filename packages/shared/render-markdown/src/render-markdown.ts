// Model text → sanitised HTML for a chat view: GitHub-flavoured Markdown (marked) with table separator rows mended,
// then DOMPurify with a short allow-list. Raw HTML in the text is shown as text (a model quoting `<div>` means the
// characters), images become links (an image would be fetched the moment it renders: a model could be prompted into
// leaking page data through its URL), and every link opens in a new tab with rel="noopener noreferrer"; only
// http(s), mailto, tel and relative URLs survive.
import createDOMPurify, { type DOMPurify, type WindowLike } from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { RenderMarkdownError } from './errors.js';
import { mendTableSeparators } from './mend-table-separators.js';

export interface RenderMarkdownOptions {
  /**
   * The window whose DOM sanitises the HTML; default `globalThis.window` (every browser). Outside a browser pass
   * one, e.g. a jsdom window (`new JSDOM('').window`).
   */
  window?: WindowLike;
  /** Mend malformed table separator rows before parsing (default true). */
  mendTables?: boolean;
}

/** The elements a rendered reply may contain. */
export const ALLOWED_TAGS: readonly string[] = Object.freeze([
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'input',
  'li',
  'ol',
  'p',
  'pre',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
]);
const ALLOWED_ATTR = ['href', 'title', 'align', 'start', 'type', 'checked', 'disabled', 'class'];
/** http(s), mailto and tel, or no scheme at all (relative and fragment links). */
const ALLOWED_URI_REGEXP = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
const CODE_CLASS = /^language-[\w+#.-]{1,40}$/;
const LINE_BREAK_TAG = /^<br\s*\/?>$/i;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const markdown = new Marked({
  gfm: true,
  // Chat text: a single newline is a line break, as the person reading it expects.
  breaks: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      // `<br>` is what models put in table cells for a line break; every other tag is shown as written.
      return LINE_BREAK_TAG.test(text.trim()) ? '<br>' : escapeHtml(text);
    },
    image({ href, title, text }: Tokens.Image) {
      const label = escapeHtml(text === '' ? href : text);
      return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${label}</a>`;
    },
  },
});

const purifiers = new WeakMap<WindowLike, DOMPurify>();

function purifierFor(window: WindowLike | undefined): DOMPurify {
  if (window === undefined) throw new RenderMarkdownError('RENDER_MARKDOWN_NO_DOM');
  let purifier = purifiers.get(window);
  if (purifier) return purifier;
  purifier = createDOMPurify(window);
  if (!purifier.isSupported) throw new RenderMarkdownError('RENDER_MARKDOWN_NO_DOM');
  purifier.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    switch (element.nodeName) {
      case 'A':
        if (element.hasAttribute('href')) {
          element.setAttribute('target', '_blank');
          element.setAttribute('rel', 'noopener noreferrer');
        }
        break;
      case 'INPUT':
        // Only a task list's checkbox, and never one the person can tick.
        if (element.getAttribute('type') !== 'checkbox') element.remove();
        else element.setAttribute('disabled', '');
        break;
      case 'CODE':
        if (element.hasAttribute('class') && !CODE_CLASS.test(element.getAttribute('class') ?? '')) {
          element.removeAttribute('class');
        }
        break;
      default:
        element.removeAttribute('class');
    }
  });
  purifiers.set(window, purifier);
  return purifier;
}

const defaultWindow = (): WindowLike | undefined => (globalThis as { window?: WindowLike }).window ?? undefined;

function sanitiseConfig() {
  return { ALLOWED_TAGS: [...ALLOWED_TAGS], ALLOWED_ATTR, ALLOWED_URI_REGEXP, ALLOW_DATA_ATTR: false };
}

/** Unsanitised HTML from marked: only ever handed to DOMPurify. */
function toHtml(text: string, mendTables: boolean): string {
  // Trimmed: marked ends every block with a newline, which would only add a text node after the last one.
  return (markdown.parse(mendTables ? mendTableSeparators(text) : text) as string).trim();
}

/**
 * `text` (a model's reply, possibly still streaming) as sanitised HTML, safe to assign to `innerHTML`.
 * Throws RenderMarkdownError `RENDER_MARKDOWN_NO_DOM` outside a browser when no `window` is given.
 */
export function renderMarkdown(text: string, options: RenderMarkdownOptions = {}): string {
  const purifier = purifierFor(options.window ?? defaultWindow());
  return purifier.sanitize(toHtml(text, options.mendTables !== false), sanitiseConfig());
}

/** The same as renderMarkdown, as a fragment of the sanitising window's document (no second parse). */
export function renderMarkdownFragment(text: string, options: RenderMarkdownOptions = {}): DocumentFragment {
  const purifier = purifierFor(options.window ?? defaultWindow());
  return purifier.sanitize(toHtml(text, options.mendTables !== false), {
    ...sanitiseConfig(),
    RETURN_DOM_FRAGMENT: true,
  });
}
