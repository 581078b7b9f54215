// Where a turn's time to first token goes, for `BENCH_TIMELINE=1 npm run bench memory-recall`: timestamps of one
// turn from handing the input in to the first streamed words, taken the same way with long-term memory and without
// (a prompt contribution of its own marks when the agent starts building the turn's contributions, Node's HTTP
// diagnostics channels when the request is written and when the model server gets it, a GC observer the pauses in
// between, and the process's CPU time), so the growth can be split by stage and set against the recall the plugin measures itself.
import { subscribe } from 'node:diagnostics_channel';
import { PerformanceObserver } from 'node:perf_hooks';
import { contributions } from '@aalis/api-contributions';
import { definePlugin } from '@aalis/core';

/** One turn's marks (performance.now(), ms); undefined when the turn never got there. */
export interface TurnMarks {
  input: number;
  contributions?: number;
  requestStart?: number;
  serverStart?: number;
  firstToken?: number;
  /** Garbage collection inside [input, firstToken], ms. */
  gcMs: number;
  /** The process's CPU time (user and system, all threads) from input to first token, ms. */
  cpuMs?: number;
  /** The same from input to the contributions' build and to the request's start, ms. */
  cpuAt: { contributions?: number; requestStart?: number };
}

/** The stages of one turn, ms. */
export interface TurnStages {
  /** Input handed in → the agent builds the turn's prompt contributions (archiving the input, loading history). */
  toContributions: number;
  /** Contributions' build → the request is written (contributions, assembly, trim, serialising). */
  toRequest: number;
  /** Request written → the model server has it. */
  toServer: number;
  /** Model server has it → first streamed word back in the agent's events. */
  toFirstToken: number;
  total: number;
  gcMs: number;
  /** CPU time of the whole turn (input → first token), ms. */
  cpuMs: number;
  /** CPU time from the contributions' build to the request's start, and from there to the first word, ms. */
  cpuToRequest: number;
  cpuAfterRequest: number;
}

export function stagesOf(marks: TurnMarks): TurnStages | undefined {
  const { input, contributions: built, requestStart, serverStart, firstToken, cpuMs } = marks;
  if (
    built === undefined ||
    requestStart === undefined ||
    serverStart === undefined ||
    firstToken === undefined ||
    cpuMs === undefined ||
    marks.cpuAt.contributions === undefined ||
    marks.cpuAt.requestStart === undefined
  )
    return undefined;
  return {
    toContributions: built - input,
    toRequest: requestStart - built,
    toServer: serverStart - requestStart,
    toFirstToken: firstToken - serverStart,
    total: firstToken - input,
    gcMs: marks.gcMs,
    cpuMs,
    cpuToRequest: marks.cpuAt.requestStart - marks.cpuAt.contributions,
    cpuAfterRequest: cpuMs - marks.cpuAt.requestStart,
  };
}

/**
 * Marks one turn at a time (the bench asks its questions one after the other, in one process). `plugin` goes into
 * each harness ahead of long-term memory, so its contribution is built first and marks the start of them all.
 */
export function turnTimeline() {
  let current: TurnMarks | undefined;
  let cpu = process.cpuUsage();
  const gcs: Array<{ start: number; duration: number }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcs.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const cpuSince = () => {
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000;
  };
  const first = (key: 'requestStart' | 'serverStart') => () => {
    if (current && current[key] === undefined) {
      current[key] = performance.now();
      if (key === 'requestStart') current.cpuAt.requestStart = cpuSince();
    }
  };
  subscribe('http.client.request.start', first('requestStart'));
  subscribe('http.server.request.start', first('serverStart'));
  const plugin = definePlugin({
    name: 'bench/turn-timeline',
    uses: { contributions },
    apply({ contributions }) {
      contributions.use.contribute('agent:prompt', {
        id: 'timeline',
        anchor: 'turn-context',
        build() {
          if (current && current.contributions === undefined) {
            current.contributions = performance.now();
            current.cpuAt.contributions = cpuSince();
          }
          return undefined;
        },
      });
    },
  });
  return {
    plugin,
    start(): void {
      gcs.length = 0;
      cpu = process.cpuUsage();
      current = { input: performance.now(), gcMs: 0, cpuAt: {} };
    },
    firstToken(): void {
      if (current && current.firstToken === undefined) {
        current.firstToken = performance.now();
        current.cpuMs = cpuSince();
      }
    },
    /** The turn's marks; GC pauses are those that began inside it (the observer reports them a moment late). */
    async finish(): Promise<TurnMarks | undefined> {
      await new Promise((resolve) => setImmediate(resolve));
      const marks = current;
      current = undefined;
      if (!marks) return undefined;
      const end = marks.firstToken ?? performance.now();
      marks.gcMs = gcs
        .filter((gc) => gc.start >= marks.input && gc.start < end)
        .reduce((sum, gc) => sum + gc.duration, 0);
      return marks;
    },
    close(): void {
      observer.disconnect();
    },
  };
}
