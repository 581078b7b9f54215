// The authority service: owners from config, levels in the `authority_levels` table of the storage engine
// (levels-backends.ts: read straight from SQLite, or from an in-process copy of PostgreSQL's table kept current by
// NOTIFY, since levelOf and callerOf are synchronous).
import {
  type AuthorityService,
  authorityErrors,
  type Caller,
  isLevel,
  type LevelEntry,
  originTurnOf,
  type SetLevelRequest,
} from '@aalis/api-authority';
import type { Events } from '@aalis/core';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import type { LevelsBackend } from './levels-backends.js';

export { AUTHORITY_MIGRATIONS } from './levels-backends.js';

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function isIdentity(value: unknown): value is Identity {
  if (typeof value !== 'object' || value === null) return false;
  const { platform, userId } = value as Record<string, unknown>;
  return typeof platform === 'string' && platform !== '' && typeof userId === 'string' && userId !== '';
}

export class Authority implements AuthorityService {
  private readonly ownerKeys: Set<string>;
  private readonly ownerList: Identity[];

  constructor(
    private readonly options: {
      levels: LevelsBackend;
      owners: readonly Identity[];
      events?: Pick<Events, 'emit'>;
    },
  ) {
    this.ownerList = options.owners.map(({ platform, userId }) => ({ platform, userId }));
    this.ownerKeys = new Set(this.ownerList.map((owner) => JSON.stringify([owner.platform, owner.userId])));
  }

  isOwner(identity: Identity | undefined): boolean {
    return identity !== undefined && this.ownerKeys.has(JSON.stringify([identity.platform, identity.userId]));
  }

  levelOf(identity: Identity | undefined): number {
    return identity ? this.options.levels.levelOf(identity) : 0;
  }

  callerOf(identity: Identity | undefined): Caller {
    if (!identity) return { isOwner: false, level: 0 };
    return {
      identity: { platform: identity.platform, userId: identity.userId },
      isOwner: this.isOwner(identity),
      level: this.levelOf(identity),
    };
  }

  async setLevel({ identity, level, caller }: SetLevelRequest): Promise<void> {
    if (!isIdentity(identity)) throw authorityErrors.AALIS_AUTHORITY_INVALID_IDENTITY({ received: describe(identity) });
    if (!isLevel(level)) throw authorityErrors.AALIS_AUTHORITY_INVALID_LEVEL({ received: describe(level) });
    if (this.isOwner(identity)) throw authorityErrors.AALIS_AUTHORITY_OWNER_TARGET({ ...identity });
    const previous = await this.options.levels.setLevel(identity, level, caller.identity, (current) => {
      // Re-read the caller's level inside the transaction: the caller object may be stale.
      const callerLevel = caller.identity ? this.levelOf(caller.identity) : 0;
      const callerIsOwner = caller.identity ? this.isOwner(caller.identity) : false;
      if (!callerIsOwner && !(callerLevel > current && callerLevel > level)) {
        throw authorityErrors.AALIS_AUTHORITY_FORBIDDEN({
          platform: identity.platform,
          userId: identity.userId,
          current,
          level,
          callerLevel,
        });
      }
    });
    if (previous !== level) {
      const payload: { identity: Identity; level: number; previous: number; by?: Identity } = {
        identity: { platform: identity.platform, userId: identity.userId },
        level,
        previous,
      };
      if (caller.identity) payload.by = caller.identity;
      this.options.events?.emit('authority:level-changed', payload);
    }
  }

  levels(): LevelEntry[] {
    return this.options.levels.all();
  }

  owners(): Identity[] {
    return this.ownerList.map((owner) => ({ ...owner }));
  }

  originTurnOf(inputs: readonly IncomingMessage[]) {
    return originTurnOf({ inputs, isOwner: (identity) => this.isOwner(identity) });
  }
}
