// Feishu/Lark message content both ways. In: a message's `content` (a JSON string whose shape depends on
// message_type: text, post, image, file, audio, media …) and its `mentions` as what she reads — her mention left out
// and noted, other people as @name, images and files as resources to fetch. Out: her reply as a post with a Markdown
// element, an interactive card with a Markdown element, or plain text.

export interface LarkMention {
  key?: string;
  id?: { open_id?: string; user_id?: string; union_id?: string };
  name?: string;
}

export interface LarkResource {
  /** image_key or file_key. */
  key: string;
  type: 'image' | 'file' | 'audio';
  name?: string;
}

export interface ReadLarkContent {
  text: string;
  mentionsHer: boolean;
  resources: LarkResource[];
}

/** What a message of a type without text is shown as (the type in brackets). */
const PLACEHOLDER = (type: string) => `[${type}]`;

interface PostElement {
  tag?: string;
  text?: string;
  href?: string;
  user_id?: string;
  user_name?: string;
  image_key?: string;
  file_key?: string;
  emoji_type?: string;
  language?: string;
}

/**
 * Reads `content` of a message of `messageType`; `selfOpenId` is her open_id. Throws when the content is not the
 * JSON the type has (the caller logs a coded error and skips the event).
 */
export function readLarkContent(
  messageType: string,
  content: string,
  mentions: readonly LarkMention[],
  selfOpenId: string,
): ReadLarkContent {
  const parsed = JSON.parse(content) as Record<string, unknown>;
  if (typeof parsed !== 'object' || parsed === null) throw new Error('the content is not a JSON object');
  let mentionsHer = false;
  const byKey = new Map<string, LarkMention>();
  for (const mention of mentions) if (mention.key) byKey.set(mention.key, mention);
  /** A mention placeholder (@_user_1, @_all) as she reads it. */
  const mention = (key: string, fallbackName?: string): string => {
    if (key === '@_all' || key === 'all') {
      mentionsHer = true;
      return '';
    }
    const who = byKey.get(key);
    if (who?.id?.open_id !== undefined && who.id.open_id === selfOpenId) {
      mentionsHer = true;
      return '';
    }
    return `@${who?.name ?? fallbackName ?? key.replace(/^@/, '')}`;
  };
  const resources: LarkResource[] = [];
  let text = '';
  switch (messageType) {
    case 'text': {
      if (typeof parsed.text !== 'string') throw new Error('a text message without text');
      text = parsed.text.replace(/@_(?:user_\d+|all)/g, (key) => mention(key));
      break;
    }
    case 'post': {
      // Received posts are {title, content: [[element …] …]} (sent ones may be keyed by locale: the first is read).
      const post = (Array.isArray(parsed.content) ? parsed : Object.values(parsed)[0]) as
        | { title?: string; content?: PostElement[][] }
        | undefined;
      if (!post || !Array.isArray(post.content)) throw new Error('a post without content');
      const lines: string[] = [];
      if (post.title) lines.push(post.title);
      for (const paragraph of post.content) {
        let line = '';
        for (const element of Array.isArray(paragraph) ? paragraph : []) {
          switch (element.tag) {
            case 'text':
            case 'md':
              line += element.text ?? '';
              break;
            case 'a':
              line +=
                element.href && element.href !== element.text
                  ? `${element.text ?? ''} (${element.href})`
                  : (element.text ?? '');
              break;
            case 'at':
              line += mention(element.user_id ?? '', element.user_name);
              break;
            case 'img':
              if (element.image_key) resources.push({ key: element.image_key, type: 'image' });
              break;
            case 'media':
              if (element.file_key) resources.push({ key: element.file_key, type: 'file' });
              break;
            case 'emotion':
              line += element.emoji_type ? `[${element.emoji_type}]` : '';
              break;
            case 'code_block':
              line += `\`\`\`${element.language ?? ''}\n${element.text ?? ''}\n\`\`\``;
              break;
            case 'hr':
              line += '\n———\n';
              break;
            default:
              line += element.text ?? '';
          }
        }
        lines.push(line.replace(/^[ \t]+|[ \t]+$/g, ''));
      }
      text = lines.join('\n');
      break;
    }
    case 'image':
      if (typeof parsed.image_key !== 'string') throw new Error('an image message without image_key');
      resources.push({ key: parsed.image_key, type: 'image' });
      break;
    case 'file':
    case 'audio':
    case 'media':
      if (typeof parsed.file_key !== 'string') throw new Error(`a ${messageType} message without file_key`);
      resources.push({
        key: parsed.file_key,
        type: messageType === 'audio' ? 'audio' : 'file',
        ...(typeof parsed.file_name === 'string' ? { name: parsed.file_name } : {}),
      });
      break;
    default:
      text = PLACEHOLDER(messageType);
  }
  return { text: text.replace(/[ \t]{2,}/g, ' ').trim(), mentionsHer, resources };
}

export type LarkReplyFormat = 'post' | 'card' | 'text';

/** Her reply as `msg_type` and `content` (the JSON string the message APIs take). */
export function writeLarkContent(markdown: string, format: LarkReplyFormat): { msgType: string; content: string } {
  switch (format) {
    case 'post':
      return { msgType: 'post', content: JSON.stringify({ zh_cn: { content: [[{ tag: 'md', text: markdown }]] } }) };
    case 'card':
      return {
        msgType: 'interactive',
        content: JSON.stringify({ schema: '2.0', body: { elements: [{ tag: 'markdown', content: markdown }] } }),
      };
    default:
      return { msgType: 'text', content: JSON.stringify({ text: markdown }) };
  }
}
