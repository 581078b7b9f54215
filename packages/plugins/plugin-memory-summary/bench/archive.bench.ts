// npm run bench archive — the first turn of a process and `/compact` with 100k stored messages (only the last few
// hundred active, after a compression divider) against the same with 1k stored. Both read the divider and the window by
// index, so the archive before the divider costs nothing. Goal: ≤ 1.5× the 1k figures. Both sizes run side by side in
// one process and their measurements alternate (AB BA …), so a change of the machine's load between them cancels out in
// each pair; the ratios printed are medians of the pairs' ratios.
import { memory } from '@aalis/api-memory';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { textReply } from '@aalis/testing';
import { startSummaryHarness, summaryReply } from '../src/memory-summary.case.js';

const STORED = [1_000, 100_000] as const;
const ACTIVE = 300;
const FIRST_TURN_SESSIONS = Number(process.env.BENCH_SESSIONS ?? 8);
const COMPACTIONS = Number(process.env.BENCH_COMPACTIONS ?? 12);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function conversation(count: number, from: number): Message[] {
  const messages: Message[] = [];
  for (let index = from; index < from + count; index++) {
    messages.push(
      index % 2 === 0
        ? { role: 'user', content: `[2026-11-29 10:00] owner: question number ${index} about the plan` }
        : { role: 'assistant', content: `answer ${index}: a reply with some detail about the plan.` },
    );
  }
  return messages;
}

const divider = (summary: string): Message => ({
  role: 'system',
  content: '',
  kind: 'compression-divider',
  metadata: { [WellKnownMetadataKeys.Summary]: summary },
});

interface Sample {
  ms: number;
  cpu: number;
}

async function timed(work: () => Promise<void>): Promise<Sample> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

/** One size: its own harness (data directory, model server), its sessions filled, nothing of them cached. */
async function open(stored: number) {
  // autoCompactRatio 0: only /compact compacts, so the first-turn figure is the turn alone.
  const harness = await startSummaryHarness({ summaryConfig: { autoCompactRatio: 0 } });
  const store = harness.booted.app.services.selected(memory)!.impl;
  // The last session is the one /compact acts on; one more is used only to warm up.
  const sessions = Array.from({ length: FIRST_TURN_SESSIONS + 1 }, (_, index) =>
    index === FIRST_TURN_SESSIONS ? 'cli:owner' : `cli:bench${index}`,
  );
  for (const sessionId of sessions) {
    const archived = stored - ACTIVE - 1;
    for (let offset = 0; offset < archived; offset += 10_000)
      await store.append(sessionId, conversation(Math.min(10_000, archived - offset), offset));
    await store.append(sessionId, [divider('Earlier: the plan was discussed at length.')]);
    await store.append(sessionId, conversation(ACTIVE, archived));
  }
  let compactions = 0;
  return {
    stored,
    harness,
    /** The first turn of a session nothing was cached for yet (summary, history copy), as after a start. */
    firstTurn: (index: number) =>
      timed(async () => {
        harness.server.enqueue(textReply('ok'));
        await harness.say('hello', { sessionId: sessions[index]! });
      }).then(async (sample) => {
        await harness.settle();
        return sample;
      }),
    /** `/compact` of the owner's session after ACTIVE more messages. */
    async compact(): Promise<Sample> {
      const round = compactions++;
      await store.append('cli:owner', conversation(ACTIVE, stored + round * ACTIVE));
      harness.server.enqueue(summaryReply(`summary ${round}`));
      let reply: string | undefined;
      const sample = await timed(async () => {
        [reply] = await harness.command('/compact');
      });
      if (!reply || !/\d/.test(reply)) throw new Error(`/compact did not compact: ${reply}`);
      return sample;
    },
  };
}

const sizes = [await open(STORED[0]), await open(STORED[1])] as const;
try {
  // Warm-up, not reported: a first turn (of the extra session) and a compaction on each side.
  for (const size of sizes) {
    await size.firstTurn(FIRST_TURN_SESSIONS - 1);
    await size.compact();
  }
  const samples = sizes.map(() => ({ first: [] as Sample[], compact: [] as Sample[] }));
  const alternate = async (round: number, work: (size: (typeof sizes)[number], index: number) => Promise<void>) => {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) await work(sizes[index]!, index);
  };
  for (let index = 0; index < FIRST_TURN_SESSIONS - 1; index++)
    await alternate(index, async (size, side) => {
      samples[side]!.first.push(await size.firstTurn(index));
    });
  for (let round = 0; round < COMPACTIONS; round++)
    await alternate(round, async (size, side) => {
      samples[side]!.compact.push(await size.compact());
    });

  const [small, large] = samples as [(typeof samples)[0], (typeof samples)[0]];
  console.log(
    `First turn of a session with nothing cached (${FIRST_TURN_SESSIONS - 1} sessions per size) and /compact (${COMPACTIONS} per size), ${ACTIVE} active messages; both sizes side by side, measurements alternating; medians`,
  );
  console.log('| stored   | first turn ms | first turn CPU ms | /compact ms | /compact CPU ms |');
  console.log('|----------|---------------|-------------------|-------------|-----------------|');
  const cell = (value: number, width: number) => value.toFixed(2).padStart(width);
  samples.forEach((side, index) => {
    console.log(
      `| ${String(STORED[index]).padStart(8)} | ${cell(median(side.first.map((x) => x.ms)), 13)} | ${cell(median(side.first.map((x) => x.cpu)), 17)} | ${cell(median(side.compact.map((x) => x.ms)), 11)} | ${cell(median(side.compact.map((x) => x.cpu)), 15)} |`,
    );
  });
  /** Median of the pairs' ratios (large ÷ small, measured one after the other), with their range. */
  const paired = (pick: (sample: Sample) => number, of: 'first' | 'compact') => {
    const ratios = large[of].map((sample, index) => pick(sample) / pick(small[of][index]!));
    const sorted = [...ratios].sort((a, b) => a - b);
    return `${median(ratios).toFixed(2)}× (${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)})`;
  };
  console.log(
    `Goal 1: ${STORED[1]} stored ÷ ${STORED[0]} stored ≤ 1.5× (median of paired ratios, range) — first turn ${paired((x) => x.ms, 'first')}, CPU ${paired((x) => x.cpu, 'first')}; /compact ${paired((x) => x.ms, 'compact')}, CPU ${paired((x) => x.cpu, 'compact')}`,
  );
} finally {
  for (const size of sizes) await size.harness.close();
}
