// Between Markdown and Slack's mrkdwn. Out: model text (Markdown, parsed with `marked`'s lexer) as mrkdwn — *bold*,
// _italic_, ~strike~, `code`, ``` blocks, <url|label> links, > quotes; structure mrkdwn has no syntax for (headings,
// lists, tables, rules) becomes plain lines; &, < and > are escaped as Slack asks. In: a message's mrkdwn as the
// text she reads — user, channel and link references resolved, entities decoded, the mention of her left out.
import { type ChatMarkup, decodeMarkedEntities, markdownToChatMarkup } from '@aalis/platform-room';

const escapeMrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A link label may hold neither `|` nor `>` (they end it). */
const label = (text: string) => text.replace(/[|>]/g, ' ');

/** `<url>` when its text is the address itself (or none), else `<url|text>`; not safe to open: the text alone. */
function slackLink(href: string | undefined, text: string, raw: string): string {
  if (!href) return text;
  const bare = !text || text === escapeMrkdwn(href) || text === escapeMrkdwn(raw);
  return bare ? `<${href}>` : `<${href}|${label(text)}>`;
}

const mrkdwn: ChatMarkup = {
  escape: escapeMrkdwn,
  strong: (inner) => `*${inner}*`,
  em: (inner) => `_${inner}_`,
  del: (inner) => `~${inner}~`,
  code: (text) => `\`${escapeMrkdwn(decodeMarkedEntities(text))}\``,
  link: slackLink,
  image: (href, alt, raw) => slackLink(href, escapeMrkdwn(alt), raw),
  codeBlock: (text) => `\`\`\`\n${escapeMrkdwn(text)}\n\`\`\``,
  quote: (inner) =>
    inner
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n'),
  // Only links a person can safely open.
  protocols: ['http:', 'https:', 'mailto:'],
};

/** Markdown as Slack mrkdwn (the `text` of chat.postMessage). */
export function markdownToMrkdwn(markdown: string): string {
  return markdownToChatMarkup(markdown, mrkdwn);
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
