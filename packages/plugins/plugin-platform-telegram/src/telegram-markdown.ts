// Model text (Markdown) to the HTML subset the Bot API's parse_mode "HTML" accepts: <b>, <i>, <s>, <code>,
// <pre><code class="language-…">, <a href>, <blockquote>. Structure Telegram has no tags for (headings, lists,
// tables, rules) becomes plain lines (platform-room's chat markup walk); everything else is escaped text.
import { type ChatMarkup, markdownToChatMarkup } from '@aalis/platform-room';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) => escapeHtml(text).replace(/"/g, '&quot;');
const anchor = (href: string, text: string) => `<a href="${escapeAttribute(href)}">${text}</a>`;

const telegramHtml: ChatMarkup = {
  escape: escapeHtml,
  strong: (inner) => `<b>${inner}</b>`,
  em: (inner) => `<i>${inner}</i>`,
  del: (inner) => `<s>${inner}</s>`,
  code: (text) => `<code>${escapeHtml(text)}</code>`,
  link: (href, text) => (href ? anchor(href, text) : text),
  image: (href, alt) => (href ? anchor(href, escapeHtml(alt || href)) : escapeHtml(alt)),
  codeBlock: (text, language) =>
    `${/^[\w+#.-]+$/.test(language) ? `<pre><code class="language-${language}">` : '<pre><code>'}${escapeHtml(text)}</code></pre>`,
  quote: (inner) => `<blockquote>${inner}</blockquote>`,
  // Only links a person can safely open.
  protocols: ['http:', 'https:', 'mailto:', 'tg:'],
};

/** Converts Markdown to Telegram HTML (parse_mode "HTML"). */
export function markdownToTelegramHtml(markdown: string): string {
  return markdownToChatMarkup(markdown, telegramHtml);
}
