// Reads a robot message (the `/v1.0/im/bot/messages/get` callback's data) into what the room needs: the chat, the
// sender, the text, whether it addresses her (a single chat, an @ of her, a reply to her message), what it quotes,
// files to fetch by their download codes, and the session webhook to answer through. Undefined when a field it
// needs is missing.
import type { ChatType } from '@aalis/platform-room';

export interface DingtalkRobotMessage {
  conversationId?: string;
  /** '1' a single chat, '2' a group. */
  conversationType?: string;
  conversationTitle?: string;
  chatbotUserId?: string;
  msgId?: string;
  senderNick?: string;
  senderStaffId?: string;
  senderId?: string;
  isInAtList?: boolean;
  sessionWebhook?: string;
  sessionWebhookExpiredTime?: number;
  createAt?: number;
  robotCode?: string;
  msgtype?: string;
  text?: { content?: string; isReplyMsg?: boolean; repliedMsg?: { msgId?: string; senderId?: string } };
  content?: {
    downloadCode?: string;
    pictureDownloadCode?: string;
    fileName?: string;
    recognition?: string;
    richText?: { text?: string; downloadCode?: string; pictureDownloadCode?: string; type?: string }[];
  };
}

export interface DingtalkDownload {
  type: 'image' | 'file' | 'audio';
  downloadCode: string;
  name?: string;
}

export interface DingtalkInbound {
  chatType: ChatType;
  chatId: string;
  /** The sender's user id in the organisation (staff id), or their DingTalk id when there is none. */
  userId: string;
  displayName?: string;
  title?: string;
  messageId: string;
  text: string;
  mentionsHer: boolean;
  quoteId?: string;
  /** The quoted message was hers (DingTalk names its sender). */
  quotesHer: boolean;
  downloads: DingtalkDownload[];
  webhook?: { url: string; expiresAt: number };
  timestamp: number;
}

export function readDingtalkMessage(message: DingtalkRobotMessage): DingtalkInbound | undefined {
  const chatId = message.conversationId;
  const userId = message.senderStaffId || message.senderId;
  if (!chatId || !userId || !message.msgId || !message.msgtype) return undefined;
  const chatType: ChatType = message.conversationType === '1' ? 'private' : 'group';
  const downloads: DingtalkDownload[] = [];
  let text = '';
  switch (message.msgtype) {
    case 'text':
      if (typeof message.text?.content !== 'string') return undefined;
      text = message.text.content;
      break;
    case 'richText':
      for (const part of message.content?.richText ?? []) {
        if (typeof part.text === 'string') text += part.text;
        const code = part.downloadCode ?? part.pictureDownloadCode;
        if (code && part.type === 'picture') downloads.push({ type: 'image', downloadCode: code });
      }
      break;
    case 'picture': {
      const code = message.content?.downloadCode ?? message.content?.pictureDownloadCode;
      if (code) downloads.push({ type: 'image', downloadCode: code });
      break;
    }
    case 'audio':
      // DingTalk's own transcript is the words; the recording goes along for the media plugin.
      text = message.content?.recognition ?? '';
      if (message.content?.downloadCode) downloads.push({ type: 'audio', downloadCode: message.content.downloadCode });
      break;
    case 'file':
    case 'video':
      if (message.content?.downloadCode) {
        downloads.push({
          type: 'file',
          downloadCode: message.content.downloadCode,
          ...(message.content.fileName ? { name: message.content.fileName } : {}),
        });
      }
      break;
    default:
      return undefined;
  }
  const replied = message.text?.isReplyMsg ? message.text.repliedMsg : undefined;
  const webhook =
    typeof message.sessionWebhook === 'string' && message.sessionWebhook !== ''
      ? { url: message.sessionWebhook, expiresAt: Number(message.sessionWebhookExpiredTime ?? 0) }
      : undefined;
  return {
    chatType,
    chatId,
    userId,
    ...(message.senderNick ? { displayName: message.senderNick } : {}),
    ...(chatType === 'group' && message.conversationTitle ? { title: message.conversationTitle } : {}),
    messageId: message.msgId,
    text: text.trim(),
    mentionsHer: message.isInAtList === true,
    ...(replied?.msgId ? { quoteId: replied.msgId } : {}),
    quotesHer: replied?.senderId !== undefined && replied.senderId === message.chatbotUserId,
    downloads,
    ...(webhook ? { webhook } : {}),
    timestamp: typeof message.createAt === 'number' ? message.createAt : Date.now(),
  };
}
