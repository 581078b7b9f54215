// The concurrency bench's printed report: the table of medians and per-round ratios, the pooled p99 with its
// interval, where the added latency accrued (all turns and the slowest 1 %), event-loop delay and GC pauses.
import type { Observed } from './concurrency-observe.js';
import { type Call, describeParts, partsOf, percentile, pooledRatio, type TurnSpan } from './concurrency-tail.js';

export interface Run {
  turnsPerSecond: number;
  added: number[];
  cpuPerTurn: number;
  serverCpuPerTurn: number;
  /** Connections the model server accepted during the run (a client whose pool keeps them opens none). */
  connections: number;
  /** Each turn's tag and wall-clock span, and the model server's timings of the calls (concurrency-tail.ts). */
  spans: TurnSpan[];
  calls: Call[];
  /** Event-loop delay and GC pauses of the process that ran the clients. */
  observed: Observed;
}

export interface ReportInput {
  measured: { count: number; product: Run[]; raw: Run[] }[];
  heapAt: Map<number, number[]>;
  latencyMs: number;
  turnsPerSession: number;
  rounds: number[];
  warmRounds: number;
  form: string;
}

const median = (values: number[]): number => percentile(values, 0.5);

/** "median (min–max)" of one figure over the rounds. */
function spread(runs: Run[], of: (run: Run) => number, digits = 1): string {
  const values = runs.map(of);
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

function observedLine(runs: Run[]): string {
  return [
    `loop delay p99 ${spread(runs, (run) => run.observed.loopDelay.p99)} ms, max ${spread(runs, (run) => run.observed.loopDelay.max)} ms`,
    `GC pauses per round ${spread(runs, (run) => run.observed.gc.count, 0)}, ${spread(runs, (run) => run.observed.gc.totalMs)} ms in all, longest ${spread(runs, (run) => run.observed.gc.maxMs)} ms, major ${spread(runs, (run) => run.observed.gc.majorMs)} ms`,
  ].join('; ');
}

export function reportLines(input: ReportInput): string[] {
  const { latencyMs } = input;
  const rows: string[] = [];
  const tails: string[] = [];
  for (const { count, product, raw } of input.measured) {
    const heap = input.heapAt.get(count)!;
    const perRound = (of: (run: Run) => number) => product.map((run, index) => of(run) / of(raw[index]!));
    const ratios = (of: (run: Run) => number) => median(perRound(of));
    const listed = (of: (run: Run) => number) =>
      perRound(of)
        .map((ratio) => ratio.toFixed(2))
        .join(', ');
    const med = (runs: Run[], of: (run: Run) => number) => median(runs.map(of));
    const ideal = count / ((2 * latencyMs) / 1000);
    const p99 = (run: Run) => Math.max(1, percentile(run.added, 0.99));
    const throughput = (run: Run) => run.turnsPerSecond;
    const cpu = (run: Run) => run.cpuPerTurn;
    const pooled = pooledRatio(
      product.map((run) => run.added),
      raw.map((run) => run.added),
    );
    const pooledP50 = (runs: Run[]) =>
      percentile(
        runs.flatMap((run) => run.added),
        0.5,
      );
    rows.push(
      [
        String(count).padStart(8),
        `${med(product, throughput).toFixed(0).padStart(7)} (${((100 * med(product, throughput)) / ideal).toFixed(0)}%)`,
        `${med(raw, throughput).toFixed(0).padStart(7)} (${((100 * med(raw, throughput)) / ideal).toFixed(0)}%)`,
        `**${ratios(throughput).toFixed(2)}×** (${listed(throughput)})`,
        `${pooledP50(product).toFixed(0)} / ${pooled.product.toFixed(0)}`,
        `${pooledP50(raw).toFixed(0)} / ${pooled.raw.toFixed(0)}`,
        `**${pooled.ratio.toFixed(2)}×** [${pooled.low.toFixed(2)}–${pooled.high.toFixed(2)}] (rounds: median ${ratios(p99).toFixed(2)}; ${listed(p99)})`,
        `${med(product, cpu).toFixed(2)} / ${med(raw, cpu).toFixed(2)} = **${ratios(cpu).toFixed(2)}×** (${listed(cpu)})`,
        `${med(product, (run) => run.serverCpuPerTurn).toFixed(2)} / ${med(raw, (run) => run.serverCpuPerTurn).toFixed(2)} (new connections ${med(product, (run) => run.connections)} / ${med(raw, (run) => run.connections)})`,
        heap.map((kilobytes) => kilobytes.toFixed(1)).join(' / '),
      ].join(' | '),
    );
    const parts = (runs: Run[]) => runs.flatMap((run) => partsOf(run.spans, run.calls, latencyMs));
    tails.push(
      `${count} sessions, ${pooled.samples} turns per side pooled over ${product.length} rounds (a single round's p99 rests on its ${Math.ceil(pooled.samples / product.length / 100)} slowest turns):`,
      `  where the added latency accrued, ms, mean of all turns / of the slowest 1 %: product ${describeParts(parts(product))}`,
      `                                                                         raw ${describeParts(parts(raw))}`,
      `  product: ${observedLine(product)}`,
      `  raw:     ${observedLine(raw)}`,
    );
  }
  const lines = [
    `Tool turns (2 model calls, ${latencyMs} ms each), ${input.turnsPerSession} per session, all sessions at once, ${input.rounds.join(' / ')} interleaved rounds per level after ${input.warmRounds} uncounted warm-up rounds of each (medians of rounds, per-round ratios in brackets; p50 / p99 of all rounds' turns pooled, the p99 ratio's 90 % interval from resampling rounds in square brackets); product = startAalis with SQLite, hooks, usage events, file log, run as ${input.form}`,
    '| sessions | product turns/s (of ideal) | raw turns/s (of ideal) | ratio | product added ms p50 / p99 | raw p50 / p99 | p99 ratio | CPU ms per turn product / raw (each its own process) | model server CPU ms per turn (product / raw phase) and connections it accepted per round | heap KB per idle session (two rounds of new sessions, after the timed ones) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
    'Tail (before: until the model server had read the first request; server: its delay past the latency; between: first answer written → second request read; after: second answer written → turn ended; figures per round as median (min–max)):',
    ...tails,
  ];
  return lines;
}
