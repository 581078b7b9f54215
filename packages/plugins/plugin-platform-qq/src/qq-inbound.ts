// Reads a QQ message event (GROUP_AT_MESSAGE_CREATE, GROUP_MESSAGE_CREATE, C2C_MESSAGE_CREATE) into what the room
// needs: the chat, the sender, the text without the mention of her, whether it addresses her, what it quotes and its
// attachments (images; voice recordings, videos and files as files to fetch). Undefined when a field it needs is
// missing.
import type { ChatType, InboundFile } from '@aalis/platform-room';

export interface QqAttachment {
  content_type?: string;
  filename?: string;
  url?: string;
  size?: number;
}

export interface QqMessageEvent {
  id?: string;
  content?: string;
  timestamp?: string;
  group_id?: string;
  group_openid?: string;
  author?: { id?: string; member_openid?: string; user_openid?: string; union_openid?: string; username?: string };
  attachments?: QqAttachment[];
  mentions?: { id?: string; member_openid?: string; is_you?: boolean; bot?: boolean }[];
  message_reference?: { message_id?: string };
}

export interface QqInbound {
  chatType: ChatType;
  chatId: string;
  userId: string;
  displayName?: string;
  messageId: string;
  text: string;
  /** The event itself says she was mentioned (a group @ event, or a mention of her). */
  mentionsHer: boolean;
  quoteId?: string;
  images: { url: string }[];
  files: InboundFile[];
  timestamp: number;
}

/** QQ sometimes leaves the scheme off attachment URLs. */
function absolute(url: string): string {
  return /^[a-z]+:\/\//i.test(url) ? url : `https://${url.replace(/^\/+/, '')}`;
}

export function readQqMessage(type: string, event: QqMessageEvent, selfId: string | undefined): QqInbound | undefined {
  const chatType: ChatType = type === 'C2C_MESSAGE_CREATE' ? 'private' : 'group';
  const chatId = chatType === 'private' ? event.author?.user_openid : event.group_openid;
  const userId = chatType === 'private' ? event.author?.user_openid : (event.author?.member_openid ?? event.author?.id);
  if (!event.id || !chatId || !userId || (typeof event.content !== 'string' && !event.attachments?.length)) {
    return undefined;
  }
  const images: { url: string }[] = [];
  const files: InboundFile[] = [];
  for (const attachment of event.attachments ?? []) {
    if (!attachment.url) continue;
    const url = absolute(attachment.url);
    const kind = attachment.content_type ?? '';
    const name = attachment.filename;
    if (kind.startsWith('image/') || kind === 'image') images.push({ url });
    else if (kind === 'voice' || kind.startsWith('audio/'))
      files.push({ type: 'audio', url, ...(name ? { name } : {}) });
    else files.push({ type: 'file', url, ...(name ? { name } : {}) });
  }
  // Her mention in the text (`<@!id>` / `<@id>`) is addressing, not content; other mentions stay as written.
  let text = event.content ?? '';
  if (selfId) text = text.replaceAll(`<@!${selfId}>`, '').replaceAll(`<@${selfId}>`, '');
  const mentionsHer =
    type === 'GROUP_AT_MESSAGE_CREATE' || (event.mentions ?? []).some((mention) => mention.is_you === true);
  const parsed = event.timestamp ? Date.parse(event.timestamp) : Number.NaN;
  return {
    chatType,
    chatId,
    userId,
    ...(event.author?.username ? { displayName: event.author.username } : {}),
    messageId: event.id,
    text: text.trim(),
    mentionsHer,
    ...(event.message_reference?.message_id ? { quoteId: event.message_reference.message_id } : {}),
    images,
    files,
    timestamp: Number.isFinite(parsed) ? parsed : Date.now(),
  };
}
