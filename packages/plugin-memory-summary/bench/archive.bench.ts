// npm run bench archive — issue #15 goal 1: the first turn of a process and `/compact` with 100k stored messages
// (only the last few hundred active, after a compression divider) against the same with 1k stored. Both read the
// divider and the window by index, so the archive before the divider costs nothing. Goal: ≤ 1.5× the 1k figures.
import { memory } from '@aalis/api-memory';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { textReply } from '@aalis/testing';
import { startSummaryHarness, summaryReply } from '../src/memory-summary.case.js';

const STORED = [1_000, 100_000];
const ACTIVE = 300;
const FIRST_TURN_SESSIONS = Number(process.env.BENCH_SESSIONS ?? 4);
const COMPACTIONS = Number(process.env.BENCH_COMPACTIONS ?? 6);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
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

interface Figures {
  firstTurnMs: number;
  firstTurnCpu: number;
  compactMs: number;
  compactCpu: number;
}

const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function measure(stored: number): Promise<Figures> {
  // autoCompactRatio 0: only /compact compacts, so the first-turn figure is the turn alone.
  const harness = await startSummaryHarness({ summaryConfig: { autoCompactRatio: 0 } });
  try {
    const store = harness.booted.app.services.selected(memory)!.impl;
    const sessions = Array.from({ length: FIRST_TURN_SESSIONS }, (_, index) =>
      index === FIRST_TURN_SESSIONS - 1 ? 'cli:owner' : `cli:bench${index}`,
    );
    for (const sessionId of sessions) {
      const archived = stored - ACTIVE - 1;
      for (let offset = 0; offset < archived; offset += 10_000)
        await store.append(sessionId, conversation(Math.min(10_000, archived - offset), offset));
      await store.append(sessionId, [divider('Earlier: the plan was discussed at length.')]);
      await store.append(sessionId, conversation(ACTIVE, archived));
    }
    // First turn of each session: nothing cached for it yet (summary, history copy), as after a start.
    const firstTurn: number[] = [];
    const firstTurnCpu: number[] = [];
    for (const sessionId of sessions) {
      harness.server.enqueue(textReply('ok'));
      const start = performance.now();
      const cpu = process.cpuUsage();
      await harness.say('hello', { sessionId });
      firstTurnCpu.push(cpuSince(cpu));
      firstTurn.push(performance.now() - start);
    }
    await harness.settle();
    const compact: number[] = [];
    const compactCpu: number[] = [];
    for (let round = 0; round < COMPACTIONS; round++) {
      await store.append('cli:owner', conversation(ACTIVE, stored + round * ACTIVE));
      harness.server.enqueue(summaryReply(`summary ${round}`));
      const start = performance.now();
      const cpu = process.cpuUsage();
      const [reply] = await harness.command('/compact');
      compactCpu.push(cpuSince(cpu));
      compact.push(performance.now() - start);
      if (!reply || !/\d/.test(reply)) throw new Error(`/compact did not compact: ${reply}`);
    }
    return {
      firstTurnMs: median(firstTurn),
      firstTurnCpu: median(firstTurnCpu),
      compactMs: median(compact),
      compactCpu: median(compactCpu),
    };
  } finally {
    await harness.close();
  }
}

await measure(STORED[0]!); // warm-up, not reported
const rows: Array<{ stored: number } & Figures> = [];
for (const stored of STORED) rows.push({ stored, ...(await measure(stored)) });
console.log(
  `First turn of a session with nothing cached (median of ${FIRST_TURN_SESSIONS}) and /compact (median of ${COMPACTIONS}), ${ACTIVE} active messages`,
);
console.log('| stored   | first turn ms | first turn CPU ms | /compact ms | /compact CPU ms |');
console.log('|----------|---------------|-------------------|-------------|-----------------|');
const cell = (value: number, width: number) => value.toFixed(2).padStart(width);
for (const row of rows)
  console.log(
    `| ${String(row.stored).padStart(8)} | ${cell(row.firstTurnMs, 13)} | ${cell(row.firstTurnCpu, 17)} | ${cell(row.compactMs, 11)} | ${cell(row.compactCpu, 15)} |`,
  );
const [small, large] = rows as [(typeof rows)[0], (typeof rows)[0]];
const ratio = (pick: (row: Figures) => number) => (pick(large) / pick(small)).toFixed(2);
console.log(
  `Goal 1: ${large.stored} stored ÷ ${small.stored} stored ≤ 1.5× — first turn ${ratio((r) => r.firstTurnMs)}× (CPU ${ratio((r) => r.firstTurnCpu)}×), /compact ${ratio((r) => r.compactMs)}× (CPU ${ratio((r) => r.compactCpu)}×)`,
);
