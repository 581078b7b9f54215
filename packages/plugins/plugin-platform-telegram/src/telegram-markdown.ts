// Model text (Markdown) to the HTML subset the Bot API's parse_mode "HTML" accepts: <b>, <i>, <s>, <code>,
// <pre><code class="language-…">, <a href>, <blockquote>. Structure Telegram has no tags for (headings, lists,
// tables, rules) becomes plain lines; everything else is escaped text. Parsing uses `marked`'s lexer.
import { marked, type Token, type Tokens } from 'marked';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) => escapeHtml(text).replace(/"/g, '&quot;');

/** Only links a person can safely open: http(s), mailto and tg. */
function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:', 'tg:'].includes(url.protocol) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

function inline(tokens: readonly Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        out += `<b>${inline((token as Tokens.Strong).tokens)}</b>`;
        break;
      case 'em':
        out += `<i>${inline((token as Tokens.Em).tokens)}</i>`;
        break;
      case 'del':
        out += `<s>${inline((token as Tokens.Del).tokens)}</s>`;
        break;
      case 'codespan':
        out += `<code>${escapeHtml((token as Tokens.Codespan).text)}</code>`;
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const href = safeHref(link.href);
        const text = inline(link.tokens);
        out += href ? `<a href="${escapeAttribute(href)}">${text}</a>` : text;
        break;
      }
      case 'image': {
        const image = token as Tokens.Image;
        const href = safeHref(image.href);
        out += href
          ? `<a href="${escapeAttribute(href)}">${escapeHtml(image.text || href)}</a>`
          : escapeHtml(image.text);
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'text': {
        const text = token as Tokens.Text;
        out += text.tokens ? inline(text.tokens) : escapeHtml(decodeEntities(text.text));
        break;
      }
      case 'escape':
        out += escapeHtml((token as Tokens.Escape).text);
        break;
      case 'html':
        out += escapeHtml((token as Tokens.HTML).text);
        break;
      default:
        out += escapeHtml('raw' in token ? String(token.raw) : '');
    }
  }
  return out;
}

/** marked leaves the entities it created in text tokens (e.g. &quot;); Telegram gets them as characters. */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );
}

function block(tokens: readonly Token[]): string[] {
  const blocks: string[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
        break;
      case 'heading':
        blocks.push(`<b>${inline((token as Tokens.Heading).tokens)}</b>`);
        break;
      case 'paragraph':
        blocks.push(inline((token as Tokens.Paragraph).tokens));
        break;
      case 'code': {
        const code = token as Tokens.Code;
        const language = (code.lang ?? '').trim().split(/\s+/)[0] ?? '';
        const open = /^[\w+#.-]+$/.test(language) ? `<pre><code class="language-${language}">` : '<pre><code>';
        blocks.push(`${open}${escapeHtml(code.text)}</code></pre>`);
        break;
      }
      case 'blockquote':
        blocks.push(`<blockquote>${block((token as Tokens.Blockquote).tokens).join('\n')}</blockquote>`);
        break;
      case 'list': {
        const list = token as Tokens.List;
        const start = typeof list.start === 'number' ? list.start : 1;
        blocks.push(
          list.items
            .map((item, index) => {
              const marker = list.ordered ? `${start + index}.` : '•';
              const check = item.task ? (item.checked ? '☑ ' : '☐ ') : '';
              return `${marker} ${check}${block(item.tokens).join('\n')}`;
            })
            .join('\n'),
        );
        break;
      }
      case 'table': {
        const table = token as Tokens.Table;
        const row = (cells: readonly Tokens.TableCell[]) => cells.map((cell) => inline(cell.tokens)).join(' | ');
        blocks.push([`<b>${row(table.header)}</b>`, ...table.rows.map(row)].join('\n'));
        break;
      }
      case 'hr':
        blocks.push('———');
        break;
      case 'html':
        blocks.push(escapeHtml((token as Tokens.HTML).text.trim()));
        break;
      case 'text': {
        const text = token as Tokens.Text;
        blocks.push(text.tokens ? inline(text.tokens) : escapeHtml(text.text));
        break;
      }
      default:
        blocks.push(escapeHtml('raw' in token ? String(token.raw).trim() : ''));
    }
  }
  return blocks;
}

/** Converts Markdown to Telegram HTML (parse_mode "HTML"). */
export function markdownToTelegramHtml(markdown: string): string {
  return block(marked.lexer(markdown, { gfm: true }))
    .join('\n\n')
    .trim();
}
