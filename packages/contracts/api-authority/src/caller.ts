// Who is acting: the authorised identity of an input and what it may do.
import type { Identity, IncomingMessage } from '@aalis/schema-message';

/** The resolved rights of whoever acts (AuthorityService.callerOf). */
export interface Caller {
  /** The authorised identity; absent for a sender without an account (counts as nobody). */
  identity?: Identity;
  isOwner: boolean;
  /** The persisted level (0 when none); owners pass every check whatever this is. */
  level: number;
}

/** Nobody in particular: no identity, not an owner, level 0. */
export const NOBODY: Caller = Object.freeze({ isOwner: false, level: 0 });

/**
 * The authorised identity of one input (「工具调用上下文」: 各条输入的 actor,没有时是发言者): the input's `actor`;
 * for a real person (no `source`) without an actor, the sender's account on the input's platform; a sender
 * without an account — and an injection without an actor — is nobody (undefined).
 */
export function authorisedIdentityOf(
  message: Pick<IncomingMessage, 'actor' | 'sender' | 'platform' | 'source'>,
): Identity | undefined {
  if (message.actor) return { platform: message.actor.platform, userId: message.actor.userId };
  if (message.source !== undefined) return undefined;
  const userId = message.sender.userId;
  if (userId === undefined || userId === '') return undefined;
  return { platform: message.platform, userId };
}

/** Whether two identities are the same platform account. */
export function sameIdentity(a: Identity | undefined, b: Identity | undefined): boolean {
  return a !== undefined && b !== undefined && a.platform === b.platform && a.userId === b.userId;
}
