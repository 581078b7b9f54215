// The authority service contract: owners by platform account, persisted levels, callers and turn origins.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import type { Caller } from './caller.js';
import type { OriginTurn } from './origin-turn-of.js';

/** One persisted level. */
export interface LevelEntry {
  identity: Identity;
  level: number;
}

export interface SetLevelRequest {
  /** Whose level to set (a platform account; owners cannot be targeted). */
  identity: Identity;
  /** An integer ≥ 0; 0 removes the stored level. */
  level: number;
  /**
   * Who sets it. Allowed: an owner; or a caller whose level is strictly above both the target's current level
   * and the new level (so nobody can raise anyone, themselves included, to or above their own level).
   */
  caller: Caller;
}

export interface AuthorityService {
  /** Whether the identity is one of the configured owners (false for undefined). */
  isOwner(identity: Identity | undefined): boolean;
  /** The persisted level of an identity, 0 when none (and for undefined). Owners pass checks whatever it is. */
  levelOf(identity: Identity | undefined): number;
  /** The resolved caller for an authorised identity (undefined = nobody: level 0, not owner). */
  callerOf(identity: Identity | undefined): Caller;
  /** Persists a level. Errors (coded, nothing written): invalid level or identity, owner target, forbidden. */
  setLevel(request: SetLevelRequest): Promise<void>;
  /** Every persisted level (level > 0), ordered by platform then userId. */
  levels(): LevelEntry[];
  /** The configured owner accounts. */
  owners(): Identity[];
  /** originTurnOf with this service's isOwner (the owner's identities merged into one participant). */
  originTurnOf(inputs: readonly IncomingMessage[]): OriginTurn;
}

export const authority: ServiceDescriptor<AuthorityService> = defineService<AuthorityService>('authority');

declare module '@aalis/core' {
  interface EventMap {
    /** A persisted level changed (level 0 = removed). */
    'authority:level-changed': { identity: Identity; level: number; previous: number; by?: Identity };
  }
}
