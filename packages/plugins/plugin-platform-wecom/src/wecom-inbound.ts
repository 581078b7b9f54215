// Reads a decrypted WeCom intelligent-bot message (text, image, mixed, voice, file) into what the room needs: the
// chat (a group's chatid, or the person in a single chat), the sender, the text without the leading @ of her, the
// images and files (their URLs point to files encrypted with the EncodingAESKey). Undefined when a field it needs is
// missing.
import type { ChatType } from '@aalis/platform-room';

export interface WecomMessage {
  msgid?: string;
  aibotid?: string;
  chatid?: string;
  chattype?: string;
  from?: { userid?: string };
  response_url?: string;
  msgtype?: string;
  text?: { content?: string };
  image?: { url?: string };
  voice?: { content?: string };
  file?: { url?: string };
  mixed?: { msg_item?: { msgtype?: string; text?: { content?: string }; image?: { url?: string } }[] };
  stream?: { id?: string };
  event?: { eventtype?: string };
  quote?: { msgtype?: string; text?: { content?: string } };
}

export interface WecomInbound {
  chatType: ChatType;
  chatId: string;
  userId: string;
  messageId: string;
  text: string;
  /** A single chat, or a group message that starts with an @ (WeCom hands a bot a group message for its @). */
  addressed: boolean;
  imageUrls: string[];
  fileUrls: string[];
  responseUrl?: string;
}

export const WECOM_MESSAGE_TYPES = new Set(['text', 'image', 'mixed', 'voice', 'file']);

export function readWecomMessage(message: WecomMessage): WecomInbound | undefined {
  const userId = message.from?.userid;
  const chatType: ChatType = message.chattype === 'group' ? 'group' : 'private';
  const chatId = chatType === 'group' ? message.chatid : userId;
  if (!message.msgid || !userId || !chatId) return undefined;
  let text = '';
  const imageUrls: string[] = [];
  const fileUrls: string[] = [];
  switch (message.msgtype) {
    case 'text':
      if (typeof message.text?.content !== 'string') return undefined;
      text = message.text.content;
      break;
    case 'voice':
      // WeCom sends its own transcript of a voice message, not the recording.
      if (typeof message.voice?.content !== 'string') return undefined;
      text = message.voice.content;
      break;
    case 'image':
      if (!message.image?.url) return undefined;
      imageUrls.push(message.image.url);
      break;
    case 'file':
      if (!message.file?.url) return undefined;
      fileUrls.push(message.file.url);
      break;
    case 'mixed':
      for (const item of message.mixed?.msg_item ?? []) {
        if (item.msgtype === 'text' && typeof item.text?.content === 'string') text += item.text.content;
        if (item.msgtype === 'image' && item.image?.url) imageUrls.push(item.image.url);
      }
      break;
    default:
      return undefined;
  }
  // In a group WeCom hands her what @-mentions her, the mention first: it addresses, it is not content. A group
  // message without it (none is expected) is kept as room context.
  const mention = /^\s*@\S+\s*/;
  const addressed = chatType === 'private' || mention.test(text);
  if (chatType === 'group') text = text.replace(mention, '');
  return {
    chatType,
    chatId,
    userId,
    messageId: message.msgid,
    text: text.trim(),
    addressed,
    imageUrls,
    fileUrls,
    ...(message.response_url ? { responseUrl: message.response_url } : {}),
  };
}
