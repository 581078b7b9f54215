// Room sessions of an IM platform: one session per group and per private chat, registered with the session
// manager so rooms are multi-party (originChat) and the WebUI lists them.
import type { SessionManagerService } from '@aalis/api-session-manager';
import type { Logger } from '@aalis/core';
import type { Attachment, IncomingMessage } from '@aalis/schema-message';

export type ChatType = 'group' | 'private';

/** `<platform>:<group|private>:<chat id>` — stable across restarts, so history and settings follow the chat. */
export function roomSessionId(platform: string, chatType: ChatType, chatId: string): string {
  return `${platform}:${chatType}:${chatId}`;
}

/** Reads a session id made by roomSessionId back; undefined for another platform's or a malformed id. */
export function parseRoomSessionId(
  platform: string,
  sessionId: string,
): { chatType: ChatType; chatId: string } | undefined {
  const prefix = `${platform}:`;
  if (!sessionId.startsWith(prefix)) return undefined;
  const rest = sessionId.slice(prefix.length);
  const colon = rest.indexOf(':');
  const chatType = rest.slice(0, colon);
  const chatId = rest.slice(colon + 1);
  if ((chatType !== 'group' && chatType !== 'private') || chatId === '') return undefined;
  return { chatType, chatId };
}

/**
 * Makes sure the chat's session exists (kind `room`, venue = chat id, multi-party for groups) and returns its id.
 * Without a session manager the id is still returned (the gateway then treats every chat as not multi-party).
 */
export async function ensureRoomSession({
  sessionManager,
  platform,
  chatType,
  chatId,
  title,
  logger,
}: {
  sessionManager: SessionManagerService | undefined;
  platform: string;
  chatType: ChatType;
  chatId: string;
  title?: string;
  logger: Logger;
}): Promise<string> {
  const id = roomSessionId(platform, chatType, chatId);
  if (!sessionManager) return id;
  try {
    const existing = await sessionManager.get(id);
    if (!existing) {
      await sessionManager.ensure({
        id,
        kind: 'room',
        platform,
        venue: chatId,
        originChat: { multiParty: chatType === 'group' },
        ...(title ? { title } : {}),
      });
    } else if (title && existing.title !== title) {
      await sessionManager.update(id, { title });
    }
  } catch (error) {
    logger.warn('could not register the room session', { sessionId: id, error: String(error) });
  }
  return id;
}

/** What an adapter read from one platform message, for roomIncoming. */
export interface RoomInbound {
  platform: string;
  chatType: ChatType;
  chatId: string;
  /** The session's title when the chat has one (a private chat: the person's name; a group: its name). */
  title?: string;
  /** The sender's account, as owners and the sender prefix name it. */
  userId: string;
  displayName?: string;
  content: string;
  attachments: readonly Attachment[];
  messageId: string;
  /** The platform id of the message it replies to (quotes). */
  replyTo?: string;
  /** Addressed to her by the platform's own means (a mention, a private chat): a direct trigger. */
  addressed: boolean;
  timestamp: number;
}

/**
 * The chat's room session (ensured as ensureRoomSession does) and the IncomingMessage every room adapter hands to
 * the gateway: the sender is the actor on this platform, the chat is the venue.
 */
export async function roomIncoming(
  inbound: RoomInbound,
  { sessionManager, logger }: { sessionManager: SessionManagerService | undefined; logger: Logger },
): Promise<IncomingMessage> {
  const { platform, chatType, chatId, title, userId, displayName, attachments, replyTo } = inbound;
  const sessionId = await ensureRoomSession({
    sessionManager,
    platform,
    chatType,
    chatId,
    ...(title ? { title } : {}),
    logger,
  });
  return {
    sessionId,
    platform,
    venue: chatId,
    sender: { userId, ...(displayName ? { displayName } : {}) },
    actor: { platform, userId },
    content: inbound.content,
    ...(attachments.length > 0 ? { attachments: [...attachments] } : {}),
    messageId: inbound.messageId,
    ...(replyTo !== undefined ? { replyTo } : {}),
    ...(inbound.addressed ? { triggerType: 'direct' } : {}),
    timestamp: inbound.timestamp,
  };
}
