// Builds the stored form of an input: a role 'user' Message with the built content, the attachments, and the
// input's facts under WellKnownMetadataKeys (never hostNotice.untrusted).
import { failedField, fieldIs } from '@aalis/core';
import {
  type IncomingMessage,
  WellKnownMetadataKeys as Keys,
  type Message,
  type TurnEntry,
} from '@aalis/schema-message';
import { archiveErrors } from './archive-errors.js';

export interface ArchivedIncomingInput {
  message: IncomingMessage;
  /** buildIncomingContent(...) of the input. */
  content: string;
  /** Absent for an input released without a turn. */
  turnId?: string;
  entry?: TurnEntry;
  /** The moment the input entered its turn. */
  time: number;
}

export function archivedIncoming({ message, content, turnId, entry, time }: ArchivedIncomingInput): Message {
  const metadata: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined && value !== '') metadata[key] = value;
  };
  put(Keys.TurnId, turnId);
  put(Keys.TurnEntry, turnId === undefined ? undefined : entry);
  put(Keys.SenderId, message.sender?.userId);
  put(Keys.SenderName, message.sender?.displayName);
  put(Keys.Actor, message.actor ? { platform: message.actor.platform, userId: message.actor.userId } : undefined);
  put(Keys.MessageId, message.messageId);
  put(Keys.ReplyTo, message.replyTo);
  put(Keys.Source, message.source);
  put(Keys.TriggerType, message.triggerType);
  put(Keys.Platform, message.platform);
  put(Keys.Venue, message.venue);
  put(Keys.Arrival, message.arrival);
  put(Keys.HostNotice, message.hostNotice ? { kind: message.hostNotice.kind, id: message.hostNotice.id } : undefined);
  const stored: Message = { role: 'user', content, metadata, timestamp: time };
  if (message.attachments && message.attachments.length > 0) stored.attachments = structuredClone(message.attachments);
  return stored;
}

const INPUT = { field: '(input)', expected: 'an IncomingMessage object' };
const INPUT_FIELDS = [fieldIs.nonEmptyString('sessionId'), fieldIs.string('platform'), fieldIs.string('content')];

/** Throws AALIS_ARCHIVE_INPUT_INVALID / AALIS_ARCHIVE_IDLE_INPUT for an input that must not be archived. */
export function assertArchivableInput(message: IncomingMessage): void {
  const problem = failedField(message, INPUT, INPUT_FIELDS);
  if (problem) throw archiveErrors.AALIS_ARCHIVE_INPUT_INVALID(problem);
  if (message.triggerType === 'idle') throw archiveErrors.AALIS_ARCHIVE_IDLE_INPUT({ sessionId: message.sessionId });
}
