// What the concurrency bench records in each process besides CPU, to tell what a latency tail is made of: the
// event loop's delay (perf_hooks.monitorEventLoopDelay: how late a timer ran, i.e. how long the longest synchronous
// tasks held the loop) and the garbage collector's pauses (PerformanceObserver 'gc'), between start and stop.
import { constants, monitorEventLoopDelay, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';

export interface Observed {
  /** Event-loop delay in ms: median, 99th percentile and largest (resolution 1 ms: the histogram's own timer). */
  loopDelay: { p50: number; p99: number; max: number };
  /** GC pauses seen: how many, their sum and the longest (ms), and the sum of the major (mark-compact) ones. */
  gc: { count: number; totalMs: number; maxMs: number; majorMs: number };
}

/** Starts recording; the function returned stops and gives the figures. */
export function observe(): () => Observed {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const gc = { count: 0, totalMs: 0, maxMs: 0, majorMs: 0 };
  const count = (entries: PerformanceEntry[]) => {
    for (const entry of entries) {
      gc.count++;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
      if (
        (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
        constants.NODE_PERFORMANCE_GC_MAJOR
      ) {
        gc.majorMs += entry.duration;
      }
    }
  };
  const observer = new PerformanceObserver((list) => count(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    delay.disable();
    // Entries still buffered belong to this run.
    count(observer.takeRecords());
    observer.disconnect();
    const ms = (ns: number) => ns / 1e6;
    return {
      loopDelay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
      gc,
    };
  };
}
