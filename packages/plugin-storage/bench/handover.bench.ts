// npm run bench handover — what handing an input to its session's owner costs one process on PostgreSQL: the
// database work per input of the hand-over (put, take the lease, take, note, finish, settled, give the lease back)
// against the lease-only work it replaces (take the lease, note, give it back), on one throwaway PostgreSQL, and
// against a whole agent turn on the same database (one model call to the zero-latency test server).
import { PostgresDatabase } from '@aalis/postgres';
import { throwawayDatabase } from '@aalis/postgres/throwaway';
import { startHarness } from '../../plugin-agent/src/agent-harness.case.js';
import { HandOver } from '../src/hand-over.js';
import { postgresHandOver } from '../src/hand-over-backends.js';
import { postgresLeases } from '../src/lease-backends.js';
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

const url = await throwawayDatabase();
const database = new PostgresDatabase(url);
const leases = new Leases(await postgresLeases(database), { ttlMs: 4000 });
const queue = new HandOver(await postgresHandOver(database), { holder: leases.holder });
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
await database.close();

const harness = await startHarness({ storage: { database: await throwawayDatabase() } });
const turn = await time(TURNS, (index) => harness.say(`hello ${index}`));
await harness.close();

console.log(`database work per input, median of ${ROUNDS} (one process, throwaway PostgreSQL on this host):`);
console.log(`  lease only (before the hand-over)  ${leaseOnly.toFixed(2)} ms`);
console.log(`  hand-over                          ${handOver.toFixed(2)} ms  (×${(handOver / leaseOnly).toFixed(2)})`);
console.log(`whole text turn with the hand-over, median of ${TURNS}: ${turn.toFixed(2)} ms`);
console.log(
  `  the hand-over's extra database work is ${(((handOver - leaseOnly) / turn) * 100).toFixed(1)}% of a turn`,
);
