import type { Lifecycle } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { runConnection } from './run-connection.js';
import { type LoggedLine, recordingLogger, reportedStates } from './state-test-helpers.case.js';

/** A lifecycle whose disposal the test runs. */
function lifecycle() {
  const disposers: (() => void | Promise<void>)[] = [];
  const handle: Lifecycle = {
    onDispose: (fn) => {
      disposers.push(fn);
      return () => {};
    },
    onDrain: () => () => {},
    signal: new AbortController().signal,
  };
  return { handle, dispose: async () => Promise.all(disposers.map((fn) => fn())) };
}

describe('runConnection', () => {
  it('on dispose: stops the loop, shows stopped, runs stop, waits for the loop, then runs ended', async () => {
    const { state } = reportedStates();
    const { handle, dispose } = lifecycle();
    const steps: string[] = [];
    const stopping = new AbortController();
    runConnection(handle, {
      label: 'Test',
      logger: recordingLogger([]),
      stopping,
      state,
      run: () =>
        new Promise<void>((resolve) =>
          stopping.signal.addEventListener('abort', () => {
            steps.push(`loop ends (${state.current().status})`);
            setTimeout(resolve, 5);
          }),
        ),
      stop: () => steps.push('stop'),
      ended: () => steps.push('ended'),
    });
    await dispose();
    expect(steps).toEqual(['loop ends (connecting)', 'stop', 'ended']);
    expect(state.current().status).toBe('stopped');
  });

  it('logs a loop that fails while running, not one that fails because it was stopped', async () => {
    const lines: LoggedLine[] = [];
    const { state } = reportedStates();
    runConnection(lifecycle().handle, {
      label: 'Test',
      logger: recordingLogger(lines),
      stopping: new AbortController(),
      state,
      run: async () => {
        throw new Error('socket library broke');
      },
    });
    await expect
      .poll(() => lines)
      .toEqual([{ level: 'error', message: 'Test: stopped', fields: { error: 'socket library broke' } }]);

    const quiet: LoggedLine[] = [];
    const stopping = new AbortController();
    const { handle, dispose } = lifecycle();
    runConnection(handle, {
      label: 'Test',
      logger: recordingLogger(quiet),
      stopping,
      state,
      run: () =>
        new Promise<void>((_resolve, reject) =>
          stopping.signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    await dispose();
    expect(quiet).toEqual([]);
  });
});
