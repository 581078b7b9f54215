// Satori message content (its element markup, read and written with the maintained @satorijs/element): what a message
// says as text, whether it mentions her, what it quotes, its images and files; and her replies as escaped text with a
// quote element.
import h from '@satorijs/element';

export interface ReadContent {
  text: string;
  /** An `at` of her id, or an `at` of everyone. */
  mentionsHer: boolean;
  /** The id of the quoted message (a `quote` element), when there is one. */
  quoteId?: string;
  images: string[];
  files: { type: 'file' | 'audio'; url: string; name?: string }[];
}

const FILE_ELEMENTS: Record<string, 'file' | 'audio'> = { file: 'file', audio: 'audio', video: 'file' };

/** Reads a message's content; `selfId` is her account on the bridged platform. */
export function readContent(content: string, selfId: string): ReadContent {
  const read: ReadContent = { text: '', mentionsHer: false, images: [], files: [] };
  let elements: h[];
  try {
    elements = h.parse(content);
  } catch {
    // Malformed markup is read as the text it is.
    read.text = content;
    return read;
  }
  const visit = (nodes: h[]) => {
    for (const node of nodes) {
      const attrs = node.attrs as Record<string, unknown>;
      switch (node.type) {
        case 'text':
          read.text += String(attrs.content ?? '');
          break;
        case 'at':
          if (String(attrs.id ?? '') === selfId || attrs.type === 'all') read.mentionsHer = true;
          else read.text += `@${String(attrs.name ?? attrs.id ?? '')}`;
          break;
        case 'quote':
          // The quoted message's own content stays out of the text: it is context, not what was said now.
          if (attrs.id !== undefined) read.quoteId = String(attrs.id);
          break;
        case 'img':
        case 'image':
          if (typeof attrs.src === 'string') read.images.push(attrs.src);
          break;
        case 'br':
          read.text += '\n';
          break;
        case 'p':
          visit(node.children);
          read.text += '\n';
          break;
        default: {
          const kind = FILE_ELEMENTS[node.type];
          if (kind && typeof attrs.src === 'string') {
            read.files.push({
              type: kind,
              url: attrs.src,
              ...(typeof attrs.title === 'string' ? { name: attrs.title } : {}),
            });
          } else {
            visit(node.children);
          }
        }
      }
    }
  };
  visit(elements);
  read.text = read.text.replace(/^\s+/, '').replace(/\s+$/, '');
  return read;
}

/** Her reply as Satori content: the text escaped (so nothing in it is read as markup), quoting `quoteId`. */
export function writeContent(text: string, quoteId: string | undefined): string {
  const quote = quoteId === undefined ? '' : h('quote', { id: quoteId }).toString();
  return `${quote}${h.escape(text)}`;
}
