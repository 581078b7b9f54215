// The concurrency bench's latency-tail figures. A p99 of one round (300 turns at 100 sessions: its 3rd-largest
// value) is mostly noise, so the p99 is taken of all the measured rounds' turns pooled, with a confidence interval
// from resampling whole rounds (a round's turns share its moment's machine load, so they are not independent
// samples); and each turn's added latency is split where it accrued, from the model server's timings of its calls.
export type TurnSpan = [tag: string, began: number, ended: number];
export type Call = [tag: string, received: number, answered: number];

export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

/** A tiny seeded generator, so the interval printed does not change between two reports of the same samples. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PooledRatio {
  ratio: number;
  product: number;
  raw: number;
  /** 5th and 95th percentile of the ratio over rounds resampled with replacement (pairs kept together). */
  low: number;
  high: number;
  samples: number;
}

/**
 * p99 of every round's samples pooled, product over raw, and its 90 % interval: resample the rounds (each product
 * round with the floor round it was paired with), pool the drawn rounds' samples, take the ratio; 1000 times.
 */
export function pooledRatio(
  product: readonly number[][],
  raw: readonly number[][],
  share = 0.99,
  floorOf = 1,
): PooledRatio {
  const p = (rounds: readonly number[][]) => Math.max(floorOf, percentile(rounds.flat(), share));
  const draw = random(product.length * 7919 + raw.length);
  const ratios: number[] = [];
  for (let resample = 0; resample < 1000; resample++) {
    const picked = Array.from({ length: product.length }, () => Math.floor(draw() * product.length));
    ratios.push(p(picked.map((index) => product[index]!)) / p(picked.map((index) => raw[index]!)));
  }
  return {
    ratio: p(product) / p(raw),
    product: p(product),
    raw: p(raw),
    low: percentile(ratios, 0.05),
    high: percentile(ratios, 0.95),
    samples: product.flat().length,
  };
}

/** Where a turn's added latency accrued, in ms (their sum is the added latency). */
export interface Parts {
  /** From the turn's start until the model server had read the first request. */
  before: number;
  /** The model server's own delay past the latency, both calls. */
  server: number;
  /** From the first answer written until the second request was read (reading the reply, the tool, the request). */
  between: number;
  /** From the second answer written until the turn ended (reading the reply, commits, archive, log, events). */
  after: number;
  added: number;
}

export const PART_NAMES = ['before', 'server', 'between', 'after'] as const;

/** Each turn's parts, matched by tag to its two calls (turns without both calls are left out). */
export function partsOf(spans: readonly TurnSpan[], calls: readonly Call[], latencyMs: number): Parts[] {
  const byTag = new Map<string, Call[]>();
  for (const call of calls) byTag.set(call[0], [...(byTag.get(call[0]) ?? []), call]);
  const parts: Parts[] = [];
  for (const [tag, began, ended] of spans) {
    const mine = byTag.get(tag);
    if (mine?.length !== 2) continue;
    const [first, second] = mine.sort((a, b) => a[1] - b[1]) as [Call, Call];
    parts.push({
      before: first[1] - began,
      server: first[2] - first[1] - latencyMs + (second[2] - second[1] - latencyMs),
      between: second[1] - first[2],
      after: ended - second[2],
      added: ended - began - 2 * latencyMs,
    });
  }
  return parts;
}

/** Mean of each part over all turns and over the slowest 1 % (by added latency), as "all / tail" in ms. */
export function describeParts(parts: readonly Parts[]): string {
  if (parts.length === 0) return 'no turn matched its calls';
  const sorted = [...parts].sort((a, b) => a.added - b.added);
  const tail = sorted.slice(Math.floor(sorted.length * 0.99));
  const mean = (of: readonly Parts[], name: keyof Parts) => of.reduce((sum, part) => sum + part[name], 0) / of.length;
  return [...PART_NAMES, 'added' as const]
    .map((name) => `${name} ${mean(parts, name).toFixed(1)} / ${mean(tail, name).toFixed(1)}`)
    .join(', ');
}
