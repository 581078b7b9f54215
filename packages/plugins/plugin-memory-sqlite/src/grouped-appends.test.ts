import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { openDatabase, type SqliteDatabase } from '@aalis/sqlite';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupedAppends } from './grouped-appends.js';
import { SqliteMemoryStore } from './sqlite-memory-store.js';

// Appends made in one loop turn share a commit. Whatever mix of concurrent appends, reads and rollbacks comes, the
// grouped store must answer exactly as one commit per append does (the plain store, operated in the same order on a
// database of its own): the same stored messages returned, the same reads, counts and deletions.

let dirs: string[] = [];
let releases: (() => void)[] = [];
beforeEach(() => {
  dirs = [];
  releases = [];
});
afterEach(() => {
  for (const release of releases) release();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function open(): SqliteDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-grouped-'));
  dirs.push(dir);
  const lease = openDatabase(dir);
  releases.push(lease.release);
  return lease.database;
}

/** Counts top-level transactions (commits) on the database. */
function countCommits(database: SqliteDatabase): { readonly commits: number } {
  const counter = { commits: 0 };
  const write = database.write.bind(database);
  database.write = <T>(fn: (connection: SqliteDatabase['connection']) => T): T => {
    if (!database.connection.inTransaction) counter.commits++;
    return write(fn);
  };
  return counter;
}

const message = (content: string, turnId: string, kind?: string): Message => ({
  role: kind ? 'system' : 'user',
  content,
  ...(kind ? { kind } : {}),
  timestamp: 1_700_000_000_000,
  metadata: { [WellKnownMetadataKeys.TurnId]: turnId },
});
/** Ids are random per store; everything else must match. */
const withoutIds = (messages: readonly Message[]) => messages.map(({ id: _id, ...rest }) => rest);

const flushLoop = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupedAppends', () => {
  it('commits the appends of one loop turn together and answers them in order', async () => {
    const database = open();
    const grouped = new GroupedAppends(new SqliteMemoryStore(database), database);
    const counter = countCommits(database);
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((sessionId) => grouped.append(sessionId, [message(`hi ${sessionId}`, 't1')])),
    );
    expect(counter.commits).toBe(1);
    expect(answers.map((stored) => stored.map((m) => m.content))).toEqual([['hi a'], ['hi b'], ['hi c'], ['hi d']]);
    expect(grouped.read('c').map((m) => m.content)).toEqual(['hi c']);
  });

  it('a read sees every append made before it, committed or still queued', () => {
    const database = open();
    const grouped = new GroupedAppends(new SqliteMemoryStore(database), database);
    void grouped.append('s', [message('first', 't1')]);
    void grouped.append('s', [message('second', 't1')]);
    expect(grouped.countHistory('s')).toBe(2);
    expect(grouped.read('s').map((m) => m.content)).toEqual(['first', 'second']);
  });

  it('one append that fails in a shared commit fails alone; the others are stored', async () => {
    const database = open();
    const grouped = new GroupedAppends(new SqliteMemoryStore(database), database);
    // A BigInt cannot be encoded (JSON): the store throws inside its savepoint.
    const broken = { ...message('broken', 't1'), metadata: { size: 1n } } as unknown as Message;
    const results = await Promise.allSettled([
      grouped.append('s', [message('before', 't1')]),
      grouped.append('s', [broken]),
      grouped.append('s', [message('after', 't1')]),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(grouped.readAll('s').map((m) => m.content)).toEqual(['before', 'after']);
    expect(grouped.countHistory('s')).toBe(2);
  });

  it('an append whose second message fails leaves none of its rows, alone or in a shared commit', async () => {
    const database = open();
    const grouped = new GroupedAppends(new SqliteMemoryStore(database), database);
    const broken = { ...message('broken', 't1'), metadata: { size: 1n } } as unknown as Message;
    // Alone in its commit: the first message's row was inserted before the second threw, and must be rolled back.
    await expect(grouped.append('s', [message('half', 't1'), broken])).rejects.toThrow();
    expect(grouped.readAll('s')).toEqual([]);
    const results = await Promise.allSettled([
      grouped.append('s', [message('before', 't1')]),
      grouped.append('s', [message('half', 't1'), broken]),
      grouped.append('s', [message('after', 't1')]),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(grouped.readAll('s').map((m) => m.content)).toEqual(['before', 'after']);
    expect(grouped.countHistory('s')).toBe(2);
    // The counters moved only for what was stored: the next append follows 'after' directly.
    await grouped.append('s', [message('next', 't2')]);
    expect(grouped.read('s', { from: 2 }).map((m) => m.content)).toEqual(['next']);
  });

  it('an append in the group commit opens no savepoint of its own (BEGIN, its rows, COMMIT)', async () => {
    const database = open();
    const grouped = new GroupedAppends(new SqliteMemoryStore(database), database);
    await grouped.append('s', [message('warm', 't1')]);
    const statements: string[] = [];
    const prototype = Object.getPrototypeOf(database.connection.prepare('SELECT 1')) as {
      run: (...args: unknown[]) => unknown;
    };
    const run = prototype.run;
    prototype.run = function counted(this: { source: string }, ...args: unknown[]) {
      statements.push(this.source.split(' ')[0]!);
      return run.apply(this, args);
    };
    try {
      await grouped.append('s', [message('one', 't2')]);
    } finally {
      prototype.run = run;
    }
    expect(statements).toEqual(['BEGIN', 'INSERT', 'INSERT', 'COMMIT']);
  });

  it('appendInTransaction refuses to run outside a write transaction', () => {
    const store = new SqliteMemoryStore(open());
    expect(() => store.appendInTransaction('s', [message('x', 't1')])).toThrow(/open write transaction/);
  });

  it('property: answers exactly as one commit per append, under concurrent appends, reads and rollbacks', async () => {
    type Operation =
      | { type: 'appends'; batch: { session: number; size: number; turn: number; divider: boolean }[] }
      | { type: 'delete'; session: number; turn: number };
    const operation: fc.Arbitrary<Operation> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .array(
            fc.record({
              session: fc.nat(2),
              size: fc.integer({ min: 1, max: 3 }),
              turn: fc.nat(3),
              divider: fc.boolean(),
            }),
            { minLength: 1, maxLength: 6 },
          )
          .map((batch) => ({ type: 'appends' as const, batch })),
      },
      {
        weight: 1,
        arbitrary: fc.record({ type: fc.constant('delete' as const), session: fc.nat(2), turn: fc.nat(3) }),
      },
    );
    const database = open();
    const referenceDatabase = open();
    const grouped = new GroupedAppends(new SqliteMemoryStore(database), database);
    const reference = new SqliteMemoryStore(referenceDatabase);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 12 }), async (operations) => {
        const prefix = `r${run++}`;
        let counter = 0;
        for (const op of operations) {
          if (op.type === 'delete') {
            const sessionId = `${prefix}-${op.session}`;
            expect(grouped.deleteByTurn(sessionId, `t${op.turn}`)).toBe(
              reference.deleteByTurn(sessionId, `t${op.turn}`),
            );
            continue;
          }
          // Every append of the batch is made before any is committed (sessions' turns running at once).
          const pending: Promise<Message[]>[] = [];
          const expected: Message[][] = [];
          for (const { session, size, turn, divider } of op.batch) {
            const sessionId = `${prefix}-${session}`;
            const messages = Array.from({ length: size }, (_, index) =>
              message(`m${counter++}`, `t${turn}`, divider && index === size - 1 ? 'compression-divider' : undefined),
            );
            pending.push(grouped.append(sessionId, messages));
            expected.push(reference.append(sessionId, messages));
          }
          const answers = await Promise.all(pending);
          expect(answers.map(withoutIds)).toEqual(expected.map(withoutIds));
          for (let session = 0; session <= 2; session++) {
            const sessionId = `${prefix}-${session}`;
            expect(grouped.countHistory(sessionId)).toBe(reference.countHistory(sessionId));
            expect(grouped.activeStart(sessionId)).toBe(reference.activeStart(sessionId));
            expect(withoutIds(grouped.readAll(sessionId))).toEqual(withoutIds(reference.readAll(sessionId)));
            expect(withoutIds(grouped.read(sessionId, { from: 1 }))).toEqual(
              withoutIds(reference.read(sessionId, { from: 1 })),
            );
            const divider = grouped.activeDivider(sessionId);
            const referenceDivider = reference.activeDivider(sessionId);
            expect(divider && withoutIds([divider])).toEqual(referenceDivider && withoutIds([referenceDivider]));
          }
        }
        await flushLoop();
      }),
      { numRuns: 60 },
    );
  });
});
