import type { PlatformState } from '@aalis/api-platform';
import { describe, expect, it } from 'vitest';
import { type ConnectOutcome, keepConnected, keepListening } from './keep-connected.js';
import { type LoggedLine, recordingLogger, reportedStates, testErrors } from './state-test-helpers.case.js';

/** No storage: one process, no leases (holdConnection simply holds). */
const withoutStorage = {
  available: false,
  use: {
    leases: () => {
      throw new Error('leases asked for without a storage');
    },
  },
};

const shape = ({ status, configKey, error, nextAttemptAt }: PlatformState) => ({
  status,
  ...(configKey ? { configKey } : {}),
  ...(error ? { error: error.code } : {}),
  ...(nextAttemptAt ? { next: true } : {}),
});

describe('keepConnected', () => {
  it('shows refused (its key) until an attempt succeeds, a failure with its error, a close after ready without one', async () => {
    const { state, seen } = reportedStates('wss://gateway.test/');
    const lines: LoggedLine[] = [];
    const stopping = new AbortController();
    const script: (() => Promise<ConnectOutcome>)[] = [
      async () => {
        throw testErrors.AALIS_TEST_REFUSED();
      },
      async () => {
        throw testErrors.AALIS_TEST_DOWN();
      },
      async () => {
        state.set({ status: 'connected' });
        return 'ready';
      },
      async () => 'failed',
      async () => {
        stopping.abort();
        return 'failed';
      },
    ];
    const context = {
      storage: withoutStorage,
      logger: { use: recordingLogger(lines) },
      config: { use: { retryDelayMs: 1 } },
    };
    await keepConnected(context, {
      label: 'Test',
      state,
      name: 'platform:test:1',
      stopping: stopping.signal,
      maxMs: 4,
      attempt: () => (script.shift() as () => Promise<ConnectOutcome>)(),
      refusedKey: (error) => (testErrors.AALIS_TEST_REFUSED.is(error) ? 'secret' : undefined),
      what: 'the socket',
    });
    expect(seen.map(shape)).toEqual([
      { status: 'connecting' },
      { status: 'refused', configKey: 'plugins.platform-test.secret', error: 'AALIS_TEST_REFUSED' },
      { status: 'refused', configKey: 'plugins.platform-test.secret', error: 'AALIS_TEST_REFUSED', next: true },
      { status: 'reconnecting', error: 'AALIS_TEST_DOWN' },
      { status: 'reconnecting', error: 'AALIS_TEST_DOWN', next: true },
      { status: 'connected' },
      { status: 'reconnecting', next: true },
      { status: 'reconnecting', next: true },
    ]);
    expect(seen.every((entry) => entry.endpoint === 'wss://gateway.test/')).toBe(true);
    expect(lines.filter((line) => line.level !== 'info')).toEqual([
      { level: 'error', message: 'The test platform refused the credentials.', fields: { code: 'AALIS_TEST_REFUSED' } },
      {
        level: 'warn',
        message: 'Test: the socket could not be opened: The test platform is down.',
        fields: { code: 'AALIS_TEST_DOWN' },
      },
    ]);
    expect(lines.filter((line) => line.level === 'info').map((line) => line.message)).toEqual([
      'Test: the socket closed; reconnecting in 2 ms',
      'Test: the socket closed; reconnecting in 4 ms',
      'Test: the socket closed; reconnecting in 1 ms',
      'Test: the socket closed; reconnecting in 2 ms',
    ]);
  });
});

describe('keepListening', () => {
  it('listens again after a pause when listening failed, until the adapter stops', async () => {
    const { state } = reportedStates();
    const stopping = new AbortController();
    const calls: string[] = [];
    await keepListening(
      { storage: withoutStorage },
      {
        state,
        name: 'platform:test:callbacks',
        stopping: stopping.signal,
        retryMs: 1,
        listen: async (held) => {
          calls.push(held.aborted ? 'aborted' : 'listen');
          // The first attempt fails at once (the port taken); the second listens until stopped.
          if (calls.length === 2) {
            const ended = new Promise((resolve) => held.addEventListener('abort', resolve, { once: true }));
            stopping.abort();
            await ended;
          }
        },
      },
    );
    expect(calls).toEqual(['listen', 'listen']);
  });
});
