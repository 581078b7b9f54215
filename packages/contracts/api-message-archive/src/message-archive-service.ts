// The message archive contract: stores inputs (with the shared content format) and the agent's own messages into
// memory, and answers the sender prefix / content of an input with the deployment's session facts and owner.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { IncomingMessage, Message, TurnEntry } from '@aalis/schema-message';

export interface ArchiveIncomingOptions {
  /** The turn the input opened or joined; absent for an input released without a turn. */
  turnId?: string;
  entry?: TurnEntry;
  /** The moment the input entered its turn (ms since the epoch); default the input's timestamp, else now. */
  time?: number;
}

export interface MessageArchiveService {
  /**
   * Stores an input as a role 'user' message whose content is buildIncomingContent(...), with its facts under
   * WellKnownMetadataKeys and its attachments, and returns it as stored. Idle inputs (triggerType 'idle') are
   * refused with AALIS_ARCHIVE_IDLE_INPUT; malformed ones with AALIS_ARCHIVE_INPUT_INVALID.
   */
  archiveIncoming(message: IncomingMessage, options?: ArchiveIncomingOptions): Promise<Message>;
  /** Stores a message the agent writes (assistant, tool, system, markers), metadata as given; returns it as stored. */
  saveMessage(sessionId: string, message: Message): Promise<Message>;
  /**
   * Stores several messages in one write, all or nothing (a tool-call group: the assistant with its results), so
   * history never holds half a group. Returns them as stored, in order.
   */
  saveMessages(sessionId: string, messages: readonly Message[]): Promise<Message[]>;
  /** speakerOfIncoming(...) with this session's kind/platform (session manager) and the owner (authority). */
  speakerOf(message: IncomingMessage): Promise<string | undefined>;
  /** The content archiveIncoming would store for the input at `time` (default: as archiveIncoming). */
  buildIncomingContent(message: IncomingMessage, options?: { time?: number }): Promise<string>;
}

export const messageArchive: ServiceDescriptor<MessageArchiveService> =
  defineService<MessageArchiveService>('messageArchive');
