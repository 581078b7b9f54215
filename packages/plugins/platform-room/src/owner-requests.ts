// Requests that wait for an owner's answer (a friend request, a group invitation): taken at once from owners and
// allow-listed accounts, otherwise kept in the pending-request store and put to each owner of the platform as a host
// notice in her private chat with her; the owners-only answer tool settles one, claimed first so an answer heard by
// two processes settles it once, and put back when settling it fails.
import { randomBytes } from 'node:crypto';
import type { GatewayService } from '@aalis/api-gateway';
import type { SessionManagerService } from '@aalis/api-session-manager';
import type { StorageService } from '@aalis/api-storage';
import type { Tool } from '@aalis/api-tools';
import type { Logger, ServiceHandle } from '@aalis/core';
import type { HostNotice, Identity, IncomingMessage } from '@aalis/schema-message';
import { type PendingRequest, type PendingRequestStore, pendingRequestsOf } from './pending-requests.js';
import { ensureRoomSession, parseRoomSessionId } from './room-session.js';

/** The longest requester's note put to an owner (untrusted text the platform lets a stranger write). */
export const MAX_REQUEST_NOTE_CHARS = 500;

/** A requester's note as it is put to the owner: trimmed, and cut at MAX_REQUEST_NOTE_CHARS. */
export function requestNote(text: string): string {
  return text.trim().slice(0, MAX_REQUEST_NOTE_CHARS);
}

export interface OwnerRequestsOptions {
  /** The platform instance id ('onebot', 'telegram'). */
  platform: string;
  /** Every owner (those of this platform are asked). */
  owners(): Identity[];
  /** The owner's private chat session with her (made if needed). */
  ownerSession(userId: string): Promise<string>;
  deliver(notice: IncomingMessage): Promise<void>;
  /** Where waiting requests are kept (opened on first use). */
  store(): Promise<PendingRequestStore>;
}

export interface AnswerToolOptions<T> {
  name: string;
  description: string;
  /** A claimed row as the adapter settles it; undefined for a row of another shape (answered as unknown). */
  read(taken: PendingRequest): T | undefined;
  /** Settles it with the owner's answer; what the tool answers. Throwing puts the request back. */
  settle(request: T, approve: boolean): Promise<string>;
  /** The answer for an id nothing waits under (settled already, expired, never asked). */
  unknown(id: string): string;
  /** The answer when settling failed (the request is back); without it the error is thrown on. */
  failed?(id: string, error: unknown): string;
}

/**
 * An adapter's OwnerRequestsOptions from what it has: each owner's private chat with her registered as a room session
 * (with a session manager), notices handed to the gateway, the storage engine's pending-request store (in memory
 * without one) opened on first use.
 */
export function ownerRequestsOptions({
  platform,
  owners,
  sessionManager,
  gateway,
  storage,
  logger,
}: {
  platform: string;
  owners(): Identity[];
  sessionManager: ServiceHandle<SessionManagerService>;
  gateway: ServiceHandle<GatewayService>;
  storage: ServiceHandle<StorageService>;
  logger: Logger;
}): OwnerRequestsOptions {
  let store: Promise<PendingRequestStore> | undefined;
  return {
    platform,
    owners,
    ownerSession: (userId) =>
      ensureRoomSession({
        sessionManager: sessionManager.available ? sessionManager.use : undefined,
        platform,
        chatType: 'private',
        chatId: userId,
        logger,
      }),
    deliver: async (notice) => {
      await gateway.use.receive(notice);
    },
    store: () => {
      store ??= pendingRequestsOf(storage.available ? storage.use : undefined);
      return store;
    },
  };
}

/** A request id the model copies: random, so an id in an old conversation never names a later request. */
export const newRequestId = () => `r${randomBytes(4).toString('hex')}`;

export class OwnerRequests {
  constructor(private readonly options: OwnerRequestsOptions) {}

  /** The owners of this platform. */
  owners(): Identity[] {
    return this.options.owners().filter((owner) => owner.platform === this.options.platform);
  }

  /** An owner's account or an allow-listed one: what it asks is accepted at once. */
  trusted(userId: string, allow: readonly string[]): boolean {
    return allow.includes(userId) || this.owners().some((owner) => owner.userId === userId);
  }

  /** Keeps the request waiting and tells each owner of the platform; how many owners were told. */
  async ask(
    request: { id: string; kind: string; data: Record<string, string> },
    notice: { content: string; source: string; hostNotice: HostNotice },
  ): Promise<number> {
    const { platform } = this.options;
    await (await this.options.store()).put({ ...request, platform, createdAt: Date.now() });
    const owners = this.owners();
    for (const owner of owners) {
      // The chat's id is the venue: a private chat's id need not be the person's (Satori's direct channel).
      const sessionId = await this.options.ownerSession(owner.userId);
      await this.options.deliver({
        sessionId,
        platform,
        venue: parseRoomSessionId(platform, sessionId)?.chatId ?? owner.userId,
        sender: {},
        content: notice.content,
        source: notice.source,
        hostNotice: notice.hostNotice,
        timestamp: Date.now(),
      });
    }
    return owners.length;
  }

  /** The owners-only tool settling a waiting request with the owner's answer. */
  answerTool<T>(tool: AnswerToolOptions<T>): Tool<{ id: string; approve: boolean }> {
    return {
      name: tool.name,
      description: tool.description,
      parameters: {
        type: 'object',
        properties: { id: { type: 'string' }, approve: { type: 'boolean' } },
        required: ['id', 'approve'],
        additionalProperties: false,
      },
      level: 'owner',
      handler: async ({ id, approve }) => {
        // Claimed first, so an answer heard by two processes settles it once; put back when settling fails.
        const store = await this.options.store();
        const taken = typeof id === 'string' ? await store.take(this.options.platform, id) : undefined;
        const request = taken ? tool.read(taken) : undefined;
        if (!taken || request === undefined) return tool.unknown(id);
        try {
          return await tool.settle(request, approve);
        } catch (error) {
          await store.put(taken);
          if (!tool.failed) throw error;
          return tool.failed(id, error);
        }
      },
    };
  }
}
