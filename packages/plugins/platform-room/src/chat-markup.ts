// Model text (Markdown, parsed with `marked`'s lexer) in a chat platform's own markup — Telegram's HTML subset,
// Slack's mrkdwn: one walk over the tokens, the platform's `ChatMarkup` saying how it writes emphasis, code, links,
// quotes and code blocks and how it escapes text. Structure chat markups have no syntax for becomes plain lines the
// same way everywhere: a heading is a bold line, list items are `•`/`1.` lines (tasks ☐/☑), a table is its rows with
// ` | ` between cells (the header bold), a rule is `———`.
import { marked, type Token, type Tokens } from 'marked';

export interface ChatMarkup {
  /** Text as the markup shows it literally. */
  escape(text: string): string;
  strong(inner: string): string;
  em(inner: string): string;
  del(inner: string): string;
  /** Inline code; `text` as written in the Markdown. */
  code(text: string): string;
  /** A link: `href` when safe to open (else undefined), `text` already written in the markup, `raw` its target. */
  link(href: string | undefined, text: string, raw: string): string;
  /** An image (shown as a link to it): `alt` as written in the Markdown. */
  image(href: string | undefined, alt: string, raw: string): string;
  codeBlock(text: string, language: string): string;
  /** A block quote around its blocks, already written. */
  quote(inner: string): string;
  /** The URL schemes of links a person can safely open ('http:', 'mailto:' …). */
  protocols: readonly string[];
}

/** marked leaves the entities it created in text tokens (e.g. &quot;); they are written as characters. */
export function decodeMarkedEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );
}

/** Converts Markdown to the chat markup. */
export function markdownToChatMarkup(markdown: string, markup: ChatMarkup): string {
  const safeHref = (href: string): string | undefined => {
    try {
      const url = new URL(href);
      return markup.protocols.includes(url.protocol) ? url.toString() : undefined;
    } catch {
      return undefined;
    }
  };
  const raw = (token: Token) => ('raw' in token ? String(token.raw) : '');
  const text = (token: Tokens.Text) =>
    token.tokens ? inline(token.tokens) : markup.escape(decodeMarkedEntities(token.text));

  function inline(tokens: readonly Token[] | undefined): string {
    let out = '';
    for (const token of tokens ?? []) {
      switch (token.type) {
        case 'strong':
          out += markup.strong(inline((token as Tokens.Strong).tokens));
          break;
        case 'em':
          out += markup.em(inline((token as Tokens.Em).tokens));
          break;
        case 'del':
          out += markup.del(inline((token as Tokens.Del).tokens));
          break;
        case 'codespan':
          out += markup.code((token as Tokens.Codespan).text);
          break;
        case 'link': {
          const link = token as Tokens.Link;
          out += markup.link(safeHref(link.href), inline(link.tokens), link.href);
          break;
        }
        case 'image': {
          const image = token as Tokens.Image;
          out += markup.image(safeHref(image.href), image.text, image.href);
          break;
        }
        case 'br':
          out += '\n';
          break;
        case 'text':
          out += text(token as Tokens.Text);
          break;
        case 'escape':
          out += markup.escape((token as Tokens.Escape).text);
          break;
        default:
          out += markup.escape(raw(token));
      }
    }
    return out;
  }

  function block(tokens: readonly Token[]): string[] {
    const blocks: string[] = [];
    for (const token of tokens) {
      switch (token.type) {
        case 'space':
          break;
        case 'heading':
          blocks.push(markup.strong(inline((token as Tokens.Heading).tokens)));
          break;
        case 'paragraph':
          blocks.push(inline((token as Tokens.Paragraph).tokens));
          break;
        case 'code': {
          const code = token as Tokens.Code;
          blocks.push(markup.codeBlock(code.text, (code.lang ?? '').trim().split(/\s+/)[0] ?? ''));
          break;
        }
        case 'blockquote':
          blocks.push(markup.quote(block((token as Tokens.Blockquote).tokens).join('\n')));
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
          blocks.push([markup.strong(row(table.header)), ...table.rows.map(row)].join('\n'));
          break;
        }
        case 'hr':
          blocks.push('———');
          break;
        case 'text':
          blocks.push(text(token as Tokens.Text));
          break;
        default:
          blocks.push(markup.escape(raw(token).trim()));
      }
    }
    return blocks;
  }

  return block(marked.lexer(markdown, { gfm: true }))
    .join('\n\n')
    .trim();
}
