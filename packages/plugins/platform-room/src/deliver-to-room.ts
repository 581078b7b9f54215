// One outbound message to a room, the way every room adapter does it: the chat is read from the session id, a
// group reply of a turn quotes the message that addressed her, the adapter's own `send` does the protocol, and a
// failure is logged and reported as `outbound:failed` with the message (so its turn id) for the history.
import type { DeliveryFailure } from '@aalis/api-gateway';
import { AalisError, type Events, type Logger } from '@aalis/core';
import type { OutgoingMessage } from '@aalis/schema-message';
import type { RoomMemory } from './room-memory.js';
import { type ChatType, parseRoomSessionId } from './room-session.js';

export interface RoomTarget {
  chatType: ChatType;
  chatId: string;
}

export async function deliverToRoom({
  platform,
  label,
  message,
  memory,
  logger,
  events,
  fallbackCode,
  send,
}: {
  platform: string;
  /** The platform's name in log lines ('OneBot', 'Telegram'). */
  label: string;
  message: OutgoingMessage;
  memory: RoomMemory;
  logger: Logger;
  events: Pick<Events, 'emitAsync'>;
  /** The code reported for a failure that is not a coded error. */
  fallbackCode: string;
  send(target: RoomTarget, replyTo: string | undefined): Promise<void>;
}): Promise<void> {
  const target = parseRoomSessionId(platform, message.sessionId);
  if (!target) {
    logger.warn(`${label}: an outbound message for a session that is not a ${label} chat was not sent`, {
      sessionId: message.sessionId,
    });
    return;
  }
  const replyTo =
    message.replyTo ??
    (target.chatType === 'group' && message.kind === 'reply' ? memory.quoteFor(message.turnId) : undefined);
  try {
    await send(target, replyTo);
  } catch (error) {
    const failure: DeliveryFailure = {
      message,
      platform,
      code: AalisError.isInstance(error) ? error.code : fallbackCode,
      reason: error instanceof Error ? error.message : String(error),
    };
    logger.warn(`${label}: delivery failed turn=${message.turnId ?? '-'} session=${message.sessionId}`, {
      code: failure.code,
      reason: failure.reason,
    });
    await events.emitAsync('outbound:failed', failure);
  }
}
