// Who may see what (the recall scopes): a message belongs to an audience, a multi-party room or one person's
// private conversations; a turn may draw from its own session, its audience, and the own words its speakers said in
// rooms. Nothing said in private reaches a room or another person: private words carry no person key, and a
// private audience is one person's. The owner's accounts on every platform are one person, 'owner'.
import { authorisedIdentityOf } from '@aalis/api-authority';
import { personKeyOf } from '@aalis/api-memory-vector';
import type { SessionInfo } from '@aalis/api-session-manager';
import type { Identity, IncomingMessage, Message } from '@aalis/schema-message';
import { WellKnownMetadataKeys as Keys } from '@aalis/schema-message';
import type { Audience, RecallScope } from './recall-store.js';

export type IsOwner = (identity: Identity) => boolean;

export function personOf(identity: Identity, isOwner: IsOwner): string {
  return personKeyOf(identity, isOwner);
}

/** The account behind a stored user message (its actor, else its sender on its platform); none for injections. */
export function identityOfStored(message: Message): Identity | undefined {
  const metadata = message.metadata ?? {};
  const actor = metadata[Keys.Actor] as Identity | undefined;
  if (actor && typeof actor.platform === 'string' && typeof actor.userId === 'string') return actor;
  if (metadata[Keys.Source] !== undefined) return undefined;
  const senderId = metadata[Keys.SenderId];
  const platform = metadata[Keys.Platform];
  return typeof senderId === 'string' && typeof platform === 'string' && senderId !== ''
    ? { platform, userId: senderId }
    : undefined;
}

/** The account behind a turn's input (its actor, else a real person's sender account). */
export function identityOfInput(message: IncomingMessage): Identity | undefined {
  return authorisedIdentityOf(message);
}

/** What the scopes need to know of a session's root (the session itself when it has no parent). */
export type RootSession = Pick<SessionInfo, 'id' | 'kind' | 'platform' | 'venue' | 'originChat'>;

/** A root read from a room session id (`<platform>:group|private:<id>`) when no session manager knows it. */
export function rootFromId(sessionId: string): RootSession {
  const match = /^([^:]+):(group|private):(.+)$/.exec(sessionId);
  if (!match) return { id: sessionId, kind: 'direct', platform: 'unknown' };
  const [, platform = '', chat, venue] = match;
  return { id: sessionId, kind: 'room', platform, venue, originChat: { multiParty: chat === 'group' } };
}

export function isMultiPartyRoom(root: RootSession): boolean {
  return root.kind === 'room' && (root.originChat?.multiParty ?? false);
}

/**
 * The audience of a session tree: its room when multi-party; else the one person it is with (a room's private
 * chat is with the account its venue names; other conversations with their first speaker, `person`); a
 * conversation whose person is not known yet is its own audience.
 */
export function audienceOf(root: RootSession, person: string | undefined, isOwner: IsOwner): Audience {
  if (isMultiPartyRoom(root)) return `room:${root.platform}:${root.venue ?? root.id}`;
  if (root.kind === 'room' && root.venue !== undefined) {
    return `private:${personOf({ platform: root.platform, userId: root.venue }, isOwner)}`;
  }
  return person === undefined ? `private:session:${root.id}` : `private:${person}`;
}

/** A turn's scope: its session, its audience, and the people speaking in it. */
export function turnScope({
  sessionId,
  audience,
  persons,
}: {
  sessionId: string;
  audience: Audience;
  persons: readonly string[];
}): RecallScope {
  const own = audience.startsWith('private:') && !audience.startsWith('private:session:') ? [audience.slice(8)] : [];
  return { sessionId, audiences: [audience], persons: [...new Set([...own, ...persons])] };
}
