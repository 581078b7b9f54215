// The authority service over SQLite: owners from config, levels in the `authority_levels` table.
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
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

export const AUTHORITY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'authority levels',
    up: `CREATE TABLE authority_levels (
      platform TEXT NOT NULL,
      user_id TEXT NOT NULL,
      level INTEGER NOT NULL CHECK (level > 0),
      updated_at INTEGER NOT NULL,
      updated_by TEXT,
      PRIMARY KEY (platform, user_id)
    ) WITHOUT ROWID`,
  },
];

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function isIdentity(value: unknown): value is Identity {
  if (typeof value !== 'object' || value === null) return false;
  const { platform, userId } = value as Record<string, unknown>;
  return typeof platform === 'string' && platform !== '' && typeof userId === 'string' && userId !== '';
}

export class SqliteAuthority implements AuthorityService {
  private readonly ownerKeys: Set<string>;
  private readonly ownerList: Identity[];

  constructor(
    private readonly options: {
      database: SqliteDatabase;
      owners: readonly Identity[];
      events?: Pick<Events, 'emit'>;
    },
  ) {
    options.database.migrate('authority', AUTHORITY_MIGRATIONS);
    this.ownerList = options.owners.map(({ platform, userId }) => ({ platform, userId }));
    this.ownerKeys = new Set(this.ownerList.map((owner) => JSON.stringify([owner.platform, owner.userId])));
  }

  isOwner(identity: Identity | undefined): boolean {
    return identity !== undefined && this.ownerKeys.has(JSON.stringify([identity.platform, identity.userId]));
  }

  levelOf(identity: Identity | undefined): number {
    if (!identity) return 0;
    const row = this.options.database
      .statement('SELECT level FROM authority_levels WHERE platform = ? AND user_id = ?')
      .get(identity.platform, identity.userId) as { level: number } | undefined;
    return row?.level ?? 0;
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
    const database = this.options.database;
    const previous = database.write((connection) => {
      const current =
        (
          connection
            .prepare('SELECT level FROM authority_levels WHERE platform = ? AND user_id = ?')
            .get(identity.platform, identity.userId) as { level: number } | undefined
        )?.level ?? 0;
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
      if (level === 0) {
        connection
          .prepare('DELETE FROM authority_levels WHERE platform = ? AND user_id = ?')
          .run(identity.platform, identity.userId);
      } else {
        connection
          .prepare(
            `INSERT INTO authority_levels (platform, user_id, level, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (platform, user_id) DO UPDATE SET level = excluded.level, updated_at = excluded.updated_at,
             updated_by = excluded.updated_by`,
          )
          .run(
            identity.platform,
            identity.userId,
            level,
            Date.now(),
            caller.identity ? JSON.stringify(caller.identity) : null,
          );
      }
      return current;
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
    const rows = this.options.database.connection
      .prepare('SELECT platform, user_id AS userId, level FROM authority_levels ORDER BY platform, user_id')
      .all() as { platform: string; userId: string; level: number }[];
    return rows.map(({ platform, userId, level }) => ({ identity: { platform, userId }, level }));
  }

  owners(): Identity[] {
    return this.ownerList.map((owner) => ({ ...owner }));
  }

  originTurnOf(inputs: readonly IncomingMessage[]) {
    return originTurnOf({ inputs, isOwner: (identity) => this.isOwner(identity) });
  }
}
