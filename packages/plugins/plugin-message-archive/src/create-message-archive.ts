// The MessageArchiveService over a memory service: resolves the session's kind and platform (session manager) and
// the owner (authority) for the sender prefix; without them every session counts as private and nobody as owner.

import type { AuthorityService } from '@aalis/api-authority';
import type { MemoryService } from '@aalis/api-memory';
import {
  type ArchiveIncomingOptions,
  archivedIncoming,
  archiveErrors,
  assertArchivableInput,
  buildIncomingContent,
  type MessageArchiveService,
  type SpeakerSession,
  speakerOfIncoming,
} from '@aalis/api-message-archive';
import type { SessionManagerService } from '@aalis/api-session-manager';
import { describeReceived, type Locale } from '@aalis/core';
import type { IncomingMessage, Message } from '@aalis/schema-message';

export interface MessageArchiveOptions {
  memory: MemoryService;
  /** The services now, if present (read at each call: they may come and go). */
  sessionManager: () => SessionManagerService | undefined;
  authority: () => AuthorityService | undefined;
  timeZone: string;
  locale: Locale;
}

export function createMessageArchive(options: MessageArchiveOptions): MessageArchiveService {
  const { memory, timeZone, locale } = options;

  async function sessionOf(message: IncomingMessage): Promise<SpeakerSession> {
    const session = await options.sessionManager()?.get(message.sessionId);
    if (!session) return { kind: 'direct', multiParty: false, platform: message.platform };
    return { kind: session.kind, multiParty: session.originChat?.multiParty ?? false, platform: session.platform };
  }

  async function speakerOf(message: IncomingMessage): Promise<string | undefined> {
    const authority = options.authority();
    return speakerOfIncoming({
      message,
      session: await sessionOf(message),
      isOwner: authority ? (identity) => authority.isOwner(identity) : undefined,
      ownerAccountOn: authority
        ? (platform) => authority.owners().find((owner) => owner.platform === platform)?.userId
        : undefined,
      locale,
    });
  }

  async function contentOf(message: IncomingMessage, time: number): Promise<string> {
    const speaker = message.hostNotice ? undefined : await speakerOf(message);
    return buildIncomingContent({ message, speaker, time, timeZone, locale });
  }

  const timeOf = (message: IncomingMessage, time: number | undefined): number => {
    const chosen = time ?? message.timestamp ?? Date.now();
    if (typeof chosen !== 'number' || !Number.isFinite(chosen)) {
      throw archiveErrors.AALIS_ARCHIVE_INPUT_INVALID({
        field: time === undefined ? 'timestamp' : 'options.time',
        expected: 'a finite number (milliseconds since the epoch)',
        received: describeReceived(chosen),
      });
    }
    return chosen;
  };

  return {
    async archiveIncoming(message: IncomingMessage, { turnId, entry = 'opened', time }: ArchiveIncomingOptions = {}) {
      assertArchivableInput(message);
      if (turnId !== undefined && (typeof turnId !== 'string' || turnId === '')) {
        throw archiveErrors.AALIS_ARCHIVE_INPUT_INVALID({
          field: 'options.turnId',
          expected: 'a non-empty string or nothing',
          received: describeReceived(turnId),
        });
      }
      if (entry !== 'opened' && entry !== 'joined') {
        throw archiveErrors.AALIS_ARCHIVE_INPUT_INVALID({
          field: 'options.entry',
          expected: '"opened" or "joined"',
          received: describeReceived(entry),
        });
      }
      const at = timeOf(message, time);
      const content = await contentOf(message, at);
      const [stored] = await memory.append(message.sessionId, [
        archivedIncoming({ message, content, turnId, entry, time: at }),
      ]);
      return stored!;
    },
    async saveMessage(sessionId: string, message: Message) {
      const [stored] = await memory.append(sessionId, [message]);
      return stored!;
    },
    saveMessages(sessionId: string, messages: readonly Message[]) {
      return memory.append(sessionId, messages);
    },
    speakerOf,
    async buildIncomingContent(message: IncomingMessage, { time }: { time?: number } = {}) {
      return contentOf(message, timeOf(message, time));
    },
  };
}
