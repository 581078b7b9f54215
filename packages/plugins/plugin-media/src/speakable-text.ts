// A reply as it is read aloud: the Markdown's words without its marks (no "asterisk asterisk", no "#"), link texts
// without their addresses, images by their alt text, and code blocks left out (code read aloud is noise; the text
// reply still carries it). Parsed with marked, the parser the WebUI renders replies with.
import { lexer, type Token, type Tokens } from 'marked';

/** The text to speak for a Markdown reply, blank lines collapsed; '' when nothing is speakable. */
export function speakableText(markdown: string): string {
  const out: string[] = [];
  walk(lexer(markdown), out);
  return out
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const BLOCKS = new Set(['paragraph', 'heading', 'blockquote', 'list_item']);

function walk(tokens: readonly Token[], out: string[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'code':
      case 'html':
        break;
      case 'space':
      case 'hr':
      case 'br':
        out.push('\n');
        break;
      case 'list':
        for (const item of (token as Tokens.List).items) {
          walk(item.tokens, out);
          out.push('\n');
        }
        out.push('\n');
        break;
      case 'table': {
        const table = token as Tokens.Table;
        for (const row of [table.header, ...table.rows]) {
          out.push(row.map((cell) => inline(cell.tokens)).join('，'));
          out.push('\n');
        }
        out.push('\n');
        break;
      }
      case 'image':
        out.push((token as Tokens.Image).text);
        break;
      case 'codespan':
      case 'escape':
        out.push((token as Tokens.Codespan).text);
        break;
      default:
        if ('tokens' in token && Array.isArray(token.tokens)) walk(token.tokens, out);
        else if ('text' in token && typeof token.text === 'string') out.push(token.text);
        if (BLOCKS.has(token.type)) out.push('\n\n');
    }
  }
}

function inline(tokens: readonly Token[]): string {
  const out: string[] = [];
  walk(tokens, out);
  return out.join('').trim();
}
