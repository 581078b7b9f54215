// npm run bench handover — what handing an input to its session's owner costs one process on PostgreSQL: the
// database work per input of the hand-over (put, take the lease, take, note, finish, settled, give the lease back)
// against the lease-only work it replaces (take the lease, note, give it back), on a throwaway PostgreSQL and on
// SQLite (where the agent keeps lease waiting), and against a whole agent turn on PostgreSQL (one model call to the
// zero-latency test server).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { SqliteDatabase } from '@aalis/sqlite';
import { startHarness } from '../../plugin-agent/src/agent-harness.case.js';
import { HandOver } from '../src/hand-over.js';
import { type HandOverBackend, postgresHandOver, sqliteHandOver } from '../src/hand-over-backends.js';
import { type LeaseBackend, postgresLeases, sqliteLeases } from '../src/lease-backends.js';
import { Leases } from '../src/leases.js';

const ROUNDS = 300;
const TURNS = 100;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(rounds: number, fn: (index: number) => Promise<void>): Promise<number> {
  for (let index = 0; index < 10; index++) await fn(-index - 1);
  const samples: number[] = [];
  for (let index = 0; index < rounds; index++) {
    const started = performance.now();
    await fn(index);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/** Median per-input database work: lease only (before the hand-over) and the hand-over's, on one engine. */
async function engineCosts(leaseBackend: LeaseBackend, backend: HandOverBackend) {
  const leases = new Leases(leaseBackend, { ttlMs: 4000 });
  const queue = new HandOver(backend, { holder: leases.holder });
  await queue.ready;
  const leaseOnly = await time(ROUNDS, async (index) => {
    const lease = (await leases.tryAcquire(`session:l${index}`))!;
    await lease.note('{"turnId":"t"}');
    await lease.release();
  });
  const handOver = await time(ROUNDS, async (index) => {
    const name = `session:h${index}`;
    const { id } = await queue.put(name, '{"sessionId":"x","platform":"cli","sender":{},"content":"hello"}');
    const lease = (await leases.tryAcquire(name))!;
    const [item] = await queue.take(name);
    await Promise.all([lease.note('{"turnId":"t"}'), queue.note(item!.id, '{"turnId":"t"}')]);
    const settled = queue.settled(id);
    await queue.finish(id, 'settled');
    await settled;
    await queue.take(name);
    await lease.release();
  });
  queue.close();
  await leases.close();
  return { leaseOnly, handOver };
}

const url = await throwawayDatabase();
const database = new PostgresDatabase(url);
const postgres = await engineCosts(await postgresLeases(database), await postgresHandOver(database));
await database.close();
const dir = mkdtempSync(join(tmpdir(), 'aalis-bench-handover-'));
const sqlite = new SqliteDatabase(join(dir, 'aalis.db'));
const embedded = await engineCosts(sqliteLeases(sqlite), sqliteHandOver(sqlite));
sqlite.close();
rmSync(dir, { recursive: true, force: true });

const harness = await startHarness({ storage: { database: await throwawayDatabase() } });
const turn = await time(TURNS, (index) => harness.say(`hello ${index}`));
await harness.close();

console.log(`database work per input, median of ${ROUNDS} (one process):`);
for (const [engine, { leaseOnly, handOver }] of [
  ['PostgreSQL (throwaway, this host)', postgres],
  ['SQLite (temp data directory)', embedded],
] as const) {
  console.log(`  ${engine}`);
  console.log(`    lease only (before the hand-over)  ${leaseOnly.toFixed(3)} ms`);
  console.log(
    `    hand-over                          ${handOver.toFixed(3)} ms  (×${(handOver / leaseOnly).toFixed(2)})`,
  );
}
console.log(`whole text turn on PostgreSQL with the hand-over, median of ${TURNS}: ${turn.toFixed(2)} ms`);
console.log(
  `  the hand-over's extra database work is ${(((postgres.handOver - postgres.leaseOnly) / turn) * 100).toFixed(1)}% of a turn`,
);
