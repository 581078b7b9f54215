// Between Markdown and Slack's mrkdwn. Out: model text (Markdown, parsed with `marked`'s lexer) as mrkdwn — *bold*,
// _italic_, ~strike~, `code`, ``` blocks, <url|label> links, > quotes; structure mrkdwn has no syntax for (headings,
// lists, tables, rules) becomes plain lines; &, < and > are escaped as Slack asks. In: a message's mrkdwn as the
// text she reads — user, channel and link references resolved, entities decoded, the mention of her left out.
import { marked, type Token, type Tokens } from 'marked';

const escapeMrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** marked leaves the entities it created in text tokens (e.g. &quot;); they are written as characters. */
function decodeMarkedEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );
}

/** Only links a person can safely open: http(s) and mailto. */
function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** A link label may hold neither `|` nor `>` (they end it). */
const label = (text: string) => text.replace(/[|>]/g, ' ');

function inline(tokens: readonly Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        out += `*${inline((token as Tokens.Strong).tokens)}*`;
        break;
      case 'em':
        out += `_${inline((token as Tokens.Em).tokens)}_`;
        break;
      case 'del':
        out += `~${inline((token as Tokens.Del).tokens)}~`;
        break;
      case 'codespan':
        out += `\`${escapeMrkdwn(decodeMarkedEntities((token as Tokens.Codespan).text))}\``;
        break;
      case 'link':
      case 'image': {
        const link = token as Tokens.Link | Tokens.Image;
        const href = safeHref(link.href);
        const text = token.type === 'link' ? inline((token as Tokens.Link).tokens) : escapeMrkdwn(link.text);
        const bare = !text || text === escapeMrkdwn(href ?? '') || text === escapeMrkdwn(link.href);
        out += href ? (bare ? `<${href}>` : `<${href}|${label(text)}>`) : text;
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'text': {
        const text = token as Tokens.Text;
        out += text.tokens ? inline(text.tokens) : escapeMrkdwn(decodeMarkedEntities(text.text));
        break;
      }
      case 'escape':
        out += escapeMrkdwn((token as Tokens.Escape).text);
        break;
      default:
        out += escapeMrkdwn('raw' in token ? String(token.raw) : '');
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
        blocks.push(`*${inline((token as Tokens.Heading).tokens)}*`);
        break;
      case 'paragraph':
        blocks.push(inline((token as Tokens.Paragraph).tokens));
        break;
      case 'code':
        blocks.push(`\`\`\`\n${escapeMrkdwn((token as Tokens.Code).text)}\n\`\`\``);
        break;
      case 'blockquote':
        blocks.push(
          block((token as Tokens.Blockquote).tokens)
            .join('\n')
            .split('\n')
            .map((line) => `> ${line}`)
            .join('\n'),
        );
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
        blocks.push([`*${row(table.header)}*`, ...table.rows.map(row)].join('\n'));
        break;
      }
      case 'hr':
        blocks.push('———');
        break;
      case 'text': {
        const text = token as Tokens.Text;
        blocks.push(text.tokens ? inline(text.tokens) : escapeMrkdwn(decodeMarkedEntities(text.text)));
        break;
      }
      default:
        blocks.push(escapeMrkdwn('raw' in token ? String(token.raw).trim() : ''));
    }
  }
  return blocks;
}

/** Markdown as Slack mrkdwn (the `text` of chat.postMessage). */
export function markdownToMrkdwn(markdown: string): string {
  return block(marked.lexer(markdown, { gfm: true }))
    .join('\n\n')
    .trim();
}

/** Plain text escaped for Slack (the fallback when the Markdown cannot be converted). */
export function plainMrkdwn(text: string): string {
  return escapeMrkdwn(text);
}

export interface ReadSlackText {
  text: string;
  /** `<@her id>` appeared in it. */
  mentionsHer: boolean;
}

/**
 * A message's text (mrkdwn as Slack delivers it) as what she reads: `<@U…>` of her is left out (and noted), other
 * people as @name (from `names`, else their id), `<#C…|name>` as #name, `<url|label>` as "label (url)", special
 * mentions as @here / @channel / @everyone, and &amp; &lt; &gt; decoded.
 */
export function readSlackText(
  text: string,
  selfId: string,
  names: ReadonlyMap<string, string> = new Map(),
): ReadSlackText {
  let mentionsHer = false;
  const read = text.replace(/<([^<>]*)>/g, (_, inner: string) => {
    const bar = inner.indexOf('|');
    const target = bar === -1 ? inner : inner.slice(0, bar);
    const shown = bar === -1 ? undefined : inner.slice(bar + 1);
    if (target.startsWith('@')) {
      const id = target.slice(1);
      if (id === selfId) {
        mentionsHer = true;
        return '';
      }
      return `@${names.get(id) ?? shown ?? id}`;
    }
    if (target.startsWith('#')) return `#${shown ?? target.slice(1)}`;
    if (target.startsWith('!subteam^')) return `@${shown ?? target.slice('!subteam^'.length)}`;
    if (target.startsWith('!')) return `@${shown ?? target.slice(1).split('^')[0]}`;
    const url = target.startsWith('mailto:') ? target.slice('mailto:'.length) : target;
    return shown && shown !== url ? `${shown} (${url})` : url;
  });
  return {
    text: read
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
      .replace(/[ \t]{2,}/g, ' ')
      .trim(),
    mentionsHer,
  };
}
