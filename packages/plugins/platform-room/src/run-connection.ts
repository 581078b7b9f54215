// An adapter's connection runs from `apply` until the plugin is disposed; then it stops the same way in every adapter:
// the loop is told to stop, the console lists the adapter as stopped, its registry entry goes, and disposal waits
// for the connection to end (so a restarted plugin never overlaps the old socket).
import { describeError, type Lifecycle, type Logger } from '@aalis/core';
import type { PlatformStateReport } from './platform-state-report.js';

export interface RunConnectionOptions {
  /** The platform as log lines name it ('DingTalk'). */
  label: string;
  logger: Logger;
  /** Aborted first when the plugin is disposed: the loop ends. */
  stopping: AbortController;
  state: PlatformStateReport;
  /** The connection loop (lease, reconnects); a failure not caused by stopping is logged as `<label>: stopped`. */
  run(): Promise<void>;
  /** What else stops with it, after `stopping` aborts and before disposal waits (the registry entry, typing). */
  stop?(): void;
  /** After the loop has ended. */
  ended?(): void;
}

/** Starts the connection loop and stops it when the plugin is disposed. */
export function runConnection(
  lifecycle: Lifecycle,
  { label, logger, stopping, state, run, stop, ended }: RunConnectionOptions,
): void {
  const running = run().catch((error: unknown) => {
    if (!stopping.signal.aborted) logger.error(`${label}: stopped`, { error: describeError(error) });
  });
  lifecycle.onDispose(async () => {
    stopping.abort();
    state.set({ status: 'stopped' });
    stop?.();
    await running;
    ended?.();
  });
}
