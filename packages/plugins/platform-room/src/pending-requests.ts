// Requests waiting for an owner's answer (a friend request, a group invitation), kept in the storage engine's
// database: a restart does not forget them, and on PostgreSQL the process that gets the owner's answer settles a
// request another process received. An answer claims its request once (DELETE … RETURNING), so two processes never
// settle it twice. Bounded: at most MAX_PENDING per platform (the oldest go first) and none older than MAX_AGE_MS.
// Without a storage service (a bare plugin host) they live in memory, as bounded.
import type { StorageService } from '@aalis/api-storage';
import type { PostgresDatabase } from '@aalis/postgres';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';

export interface PendingRequest {
  /** The id the owner's notice names (random, per request). */
  id: string;
  /** The platform instance id ('onebot', 'telegram'). */
  platform: string;
  /** The adapter's kind ('friend', 'groupInvite', 'invitation'). */
  kind: string;
  /** What the adapter needs to settle it (a flag, a chat id …). */
  data: Record<string, string>;
  createdAt: number;
}

export interface PendingRequestStore {
  /** Keeps a request until it is taken (or pushed out by the bounds). */
  put(request: PendingRequest): Promise<void>;
  /** Claims a request: the first caller (any process) gets it, and it is gone for everyone else. */
  take(platform: string, id: string): Promise<PendingRequest | undefined>;
  /** The requests of a platform still waiting, oldest first. */
  list(platform: string): Promise<PendingRequest[]>;
}

export const MAX_PENDING = 200;
/** A platform's flag lapses long before this; a request older than a week is not worth an answer. */
export const MAX_AGE_MS = 7 * 24 * 3600_000;

const TABLE = (bigint: string) => `CREATE TABLE room_pending_requests (
  platform TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at ${bigint} NOT NULL,
  PRIMARY KEY (platform, id)
)`;
const NAMESPACE = 'room-requests';
const SQLITE: readonly Migration[] = [{ version: 1, name: 'pending requests', up: TABLE('INTEGER') }];

interface Row {
  platform: string;
  id: string;
  kind: string;
  data: string;
  created_at: number | string;
}

const fromRow = (row: Row): PendingRequest => ({
  id: row.id,
  platform: row.platform,
  kind: row.kind,
  data: JSON.parse(row.data) as Record<string, string>,
  createdAt: Number(row.created_at),
});

/** Deletes what is past the bounds of a platform: too old, or beyond the newest MAX_PENDING. */
const PRUNE = (p: (n: number) => string) => `DELETE FROM room_pending_requests WHERE platform = ${p(1)} AND (
  created_at < ${p(2)} OR id NOT IN (
    SELECT id FROM room_pending_requests WHERE platform = ${p(1)} ORDER BY created_at DESC, id DESC LIMIT ${p(3)}
  ))`;

export function sqlitePendingRequests(database: SqliteDatabase, now: () => number = Date.now): PendingRequestStore {
  database.migrate(NAMESPACE, SQLITE);
  return {
    async put(request) {
      database.write((connection) => {
        connection
          .prepare(
            'INSERT INTO room_pending_requests (platform, id, kind, data, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, id) DO NOTHING',
          )
          .run(request.platform, request.id, request.kind, JSON.stringify(request.data), request.createdAt);
        const names = ['', '@platform', '@cutoff', '@max'];
        connection
          .prepare(PRUNE((n) => names[n]!))
          .run({ platform: request.platform, cutoff: now() - MAX_AGE_MS, max: MAX_PENDING });
      });
    },
    async take(platform, id) {
      const row = database.write((connection) =>
        connection
          .prepare('DELETE FROM room_pending_requests WHERE platform = ? AND id = ? RETURNING *')
          .get(platform, id),
      ) as Row | undefined;
      return row ? fromRow(row) : undefined;
    },
    async list(platform) {
      const rows = database
        .statement('SELECT * FROM room_pending_requests WHERE platform = ? AND created_at >= ? ORDER BY created_at, id')
        .all(platform, now() - MAX_AGE_MS) as Row[];
      return rows.map(fromRow);
    },
  };
}

export async function postgresPendingRequests(
  database: PostgresDatabase,
  now: () => number = Date.now,
): Promise<PendingRequestStore> {
  await database.migrate(NAMESPACE, [{ version: 1, name: 'pending requests', up: TABLE('BIGINT') }]);
  return {
    async put(request) {
      await database.transaction(async (client) => {
        await client.query(
          'INSERT INTO room_pending_requests (platform, id, kind, data, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (platform, id) DO NOTHING',
          [request.platform, request.id, request.kind, JSON.stringify(request.data), request.createdAt],
        );
        await client.query(
          PRUNE((n) => `$${n}`),
          [request.platform, now() - MAX_AGE_MS, MAX_PENDING],
        );
      });
    },
    async take(platform, id) {
      const rows = await database.query<Row>(
        'DELETE FROM room_pending_requests WHERE platform = $1 AND id = $2 RETURNING *',
        [platform, id],
      );
      return rows[0] ? fromRow(rows[0]) : undefined;
    },
    async list(platform) {
      const rows = await database.query<Row>(
        'SELECT * FROM room_pending_requests WHERE platform = $1 AND created_at >= $2 ORDER BY created_at, id',
        [platform, now() - MAX_AGE_MS],
      );
      return rows.map(fromRow);
    },
  };
}

/** Kept in memory (no storage service): bounded the same way; a restart forgets them. */
export function memoryPendingRequests(now: () => number = Date.now): PendingRequestStore {
  const requests = new Map<string, PendingRequest>();
  const key = (platform: string, id: string) => `${platform}\u0000${id}`;
  return {
    async put(request) {
      if (!requests.has(key(request.platform, request.id))) requests.set(key(request.platform, request.id), request);
      const mine = [...requests.values()].filter((entry) => entry.platform === request.platform);
      for (const entry of mine) {
        if (entry.createdAt < now() - MAX_AGE_MS) requests.delete(key(entry.platform, entry.id));
      }
      const left = mine.filter((entry) => requests.has(key(entry.platform, entry.id)));
      for (const entry of left.slice(0, Math.max(0, left.length - MAX_PENDING))) {
        requests.delete(key(entry.platform, entry.id));
      }
    },
    async take(platform, id) {
      const request = requests.get(key(platform, id));
      requests.delete(key(platform, id));
      return request;
    },
    async list(platform) {
      return [...requests.values()].filter(
        (entry) => entry.platform === platform && entry.createdAt >= now() - MAX_AGE_MS,
      );
    },
  };
}

/** The store of the storage service's engine; in memory without one. */
export async function pendingRequestsOf(storage: StorageService | undefined): Promise<PendingRequestStore> {
  if (!storage) return memoryPendingRequests();
  return storage.engine === 'postgres'
    ? postgresPendingRequests(storage.postgres())
    : sqlitePendingRequests(storage.database());
}
