// Reads a Bot API `Message`: the text (or caption) with her @-mention removed, whether it addresses her (a
// mention of her username, a text_mention of her id, a command aimed at her, a reply to one of her messages), and
// the photo to fetch.

export interface TelegramUser {
  id: number;
  is_bot?: boolean;
  first_name?: string;
  last_name?: string;
  username?: string;
}

export interface TelegramEntity {
  type: string;
  offset: number;
  length: number;
  user?: TelegramUser;
}

export interface TelegramMessage {
  message_id: number;
  from?: TelegramUser;
  chat: { id: number; type: string; title?: string; username?: string; first_name?: string; is_forum?: boolean };
  date?: number;
  /** The forum topic (or reply thread) the message belongs to; a topic when is_topic_message is true. */
  message_thread_id?: number;
  is_topic_message?: boolean;
  /** Service message that opened a forum topic (what a topic's messages reply to when they quote nothing). */
  forum_topic_created?: { name?: string };
  text?: string;
  caption?: string;
  entities?: TelegramEntity[];
  caption_entities?: TelegramEntity[];
  reply_to_message?: TelegramMessage;
  photo?: { file_id: string; file_size?: number; width?: number; height?: number }[];
  sticker?: { emoji?: string };
  document?: TelegramFile & { file_name?: string };
  audio?: TelegramFile & { file_name?: string; title?: string };
  voice?: TelegramFile;
  video?: unknown;
  location?: unknown;
}

/** What Telegram tells of a document, an audio file or a voice note (file_id to getFile it). */
export interface TelegramFile {
  file_id?: string;
  file_size?: number;
  mime_type?: string;
}

/** A document, audio file or voice note to fetch: the media plugin and the file reader take it from there. */
export interface InboundTelegramFile {
  type: 'file' | 'audio';
  fileId: string;
  name?: string;
  mimeType?: string;
}

export interface Me {
  id: number;
  username?: string;
}

export interface ReadMessage {
  text: string;
  addressed: boolean;
  /** file_id of the largest photo size, if a photo came with it. */
  photo?: string;
  /** The document, audio file or voice note that came with it (absent when none did). */
  files?: InboundTelegramFile[];
}

export interface InboundLabels {
  sticker: (emoji: string) => string;
  document: (name: string) => string;
  voice: string;
  video: string;
  location: string;
}

export function readMessage(message: TelegramMessage, me: Me, labels: InboundLabels): ReadMessage {
  const raw = message.text ?? message.caption ?? '';
  const entities = message.text !== undefined ? (message.entities ?? []) : (message.caption_entities ?? []);
  const handle = me.username ? `@${me.username.toLowerCase()}` : undefined;
  let addressed = message.reply_to_message?.from?.id === me.id;
  // Cut her own mentions out of the text, last first so offsets stay right.
  const cuts: { from: number; to: number; keep?: string }[] = [];
  for (const entity of entities) {
    const piece = raw.slice(entity.offset, entity.offset + entity.length);
    if (entity.type === 'mention' && handle && piece.toLowerCase() === handle) {
      addressed = true;
      cuts.push({ from: entity.offset, to: entity.offset + entity.length });
    } else if (entity.type === 'text_mention' && entity.user?.id === me.id) {
      addressed = true;
      cuts.push({ from: entity.offset, to: entity.offset + entity.length });
    } else if (entity.type === 'bot_command' && handle && piece.toLowerCase().endsWith(handle)) {
      // "/stop@her_bot" is the command "/stop" for her.
      addressed = true;
      cuts.push({
        from: entity.offset,
        to: entity.offset + entity.length,
        keep: piece.slice(0, piece.length - handle.length),
      });
    }
  }
  if (entities.length === 0 && handle) {
    // Telegram marks every @username and /command@username with an entity; a message that carries none (a client or
    // server that does not parse them) is read the same way from its text.
    const escaped = handle.slice(1).replace(/[^a-z0-9_]/g, '');
    for (const match of raw.matchAll(
      new RegExp(`(^|[^A-Za-z0-9_@/])(/[A-Za-z0-9_]{1,32})?@${escaped}(?![A-Za-z0-9_])`, 'gi'),
    )) {
      const from = match.index + (match[1]?.length ?? 0);
      const command = match[2];
      addressed = true;
      cuts.push({ from, to: match.index + match[0].length, ...(command ? { keep: command } : {}) });
    }
  }
  let text = raw;
  for (const cut of cuts.sort((a, b) => b.from - a.from)) {
    text = text.slice(0, cut.from) + (cut.keep ?? '') + text.slice(cut.to);
  }
  text = text.replace(/^\s+/, '').replace(/\s+$/, '').replace(/ {2,}/g, ' ');
  const notes: string[] = [];
  if (message.sticker) notes.push(labels.sticker(message.sticker.emoji ?? ''));
  // Documents, audio files and voice notes with a file_id are fetched as attachments; the label stays for those
  // without (nothing a person sent is silently lost).
  const files: InboundTelegramFile[] = [];
  const media = (type: 'file' | 'audio', file: (TelegramFile & { file_name?: string }) | undefined, name?: string) => {
    if (!file?.file_id) return false;
    files.push({
      type,
      fileId: file.file_id,
      ...(name ? { name } : {}),
      ...(file.mime_type ? { mimeType: file.mime_type } : {}),
    });
    return true;
  };
  if (message.document && !media('file', message.document, message.document.file_name))
    notes.push(labels.document(message.document.file_name ?? ''));
  if (message.audio) media('audio', message.audio, message.audio.file_name ?? message.audio.title);
  if (message.voice && !media('audio', message.voice, 'voice.ogg')) notes.push(labels.voice);
  if (message.video) notes.push(labels.video);
  if (message.location) notes.push(labels.location);
  if (notes.length > 0) text = [text, ...notes].filter((part) => part !== '').join(' ');
  const largest = [...(message.photo ?? [])].sort(
    (a, b) => (b.file_size ?? (b.width ?? 0) * (b.height ?? 0)) - (a.file_size ?? (a.width ?? 0) * (a.height ?? 0)),
  )[0];
  return { text, addressed, ...(largest ? { photo: largest.file_id } : {}), ...(files.length > 0 ? { files } : {}) };
}

/**
 * Where a message belongs in a forum supergroup: its topic's thread id, the topic's name when the message shows it
 * (a message that quotes nothing replies to the topic's creation), and the message with that reply to the topic's
 * creation taken off (it is not a quote, nor a reply to her). General and every other chat: no thread.
 */
export function topicOf(message: TelegramMessage): {
  threadId?: number;
  topicName?: string;
  message: TelegramMessage;
} {
  if (message.is_topic_message !== true || typeof message.message_thread_id !== 'number') return { message };
  const root = message.reply_to_message;
  if (root && (root.forum_topic_created !== undefined || root.message_id === message.message_thread_id)) {
    const { reply_to_message: _root, ...rest } = message;
    const name = root.forum_topic_created?.name;
    return { threadId: message.message_thread_id, ...(name ? { topicName: name } : {}), message: rest };
  }
  return { threadId: message.message_thread_id, message };
}

/** A forum topic's room (session venue) key, `<chat id>:topic:<thread id>`; a chat without a topic is its id. */
export function roomKeyOf(chatId: string | number, threadId: number | undefined): string {
  return threadId === undefined ? String(chatId) : `${chatId}:topic:${threadId}`;
}

/** Reads a room key back into what the Bot API's send methods take (chat_id, message_thread_id). */
export function chatOfRoomKey(key: string): { chat_id: number; message_thread_id?: number } {
  const match = /^(-?\d+):topic:(\d+)$/.exec(key);
  return match ? { chat_id: Number(match[1]), message_thread_id: Number(match[2]) } : { chat_id: Number(key) };
}

/**
 * `/start` (or `/start <payload>` from a deep link `t.me/<bot>?start=<payload>`) as the text leaves readMessage:
 * every person's first message to a bot, which Telegram clients send for her. The payload, if any; undefined when
 * the text is not /start. Her own `/start@her_bot` arrives here already read as `/start`.
 */
export function startPayloadOf(text: string): { payload: string } | undefined {
  const match = /^\/start(?:\s+([\s\S]*))?$/i.exec(text);
  return match ? { payload: (match[1] ?? '').trim() } : undefined;
}

/** The name shown for a sender: first and last name, else the username. */
export function displayNameOf(user: TelegramUser | undefined): string | undefined {
  if (!user) return undefined;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ').trim();
  return name || user.username || undefined;
}
