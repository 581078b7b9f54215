// The terminal relay against an in-memory hand-over queue shared by two "processes" (the real queues on SQLite and
// PostgreSQL are tested in plugin-storage; the real processes in runtime/src/chat-multi-process.test.ts).
import type { TurnInput } from '@aalis/api-agent';
import type { DeliveryFailure } from '@aalis/api-gateway';
import type { HandOverItem, HandOverService, Lease, LeasesService } from '@aalis/api-storage';
import type { ToolExecuteEvent } from '@aalis/api-tools';
import type { Logger } from '@aalis/core';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { afterEach, describe, expect, it } from 'vitest';
import { audienceOf, CLI_TERMINAL_KEY, markTerminal, type Relayed, TerminalRelay } from './terminal-relay.js';

/** One database's queue and leases as every process sees it; `as(holder)` is one process's view. */
function sharedQueue() {
  const items: Array<{ id: number; name: string; payload: string; taken: boolean; outcome?: string }> = [];
  const putListeners = new Set<(name: string, mine: boolean) => void>();
  const waiters = new Map<number, Array<(outcome: string) => void>>();
  const held = new Set<string>();
  const queue: HandOverService = {
    async put(name, payload) {
      const item = { id: items.length + 1, name, payload, taken: false };
      items.push(item);
      setImmediate(() => {
        for (const listener of putListeners) listener(name, false);
      });
      return { id: item.id };
    },
    async take(name, options) {
      const found = items.filter((item) => item.name === name && !item.taken).slice(0, options?.limit ?? 100);
      for (const item of found) item.taken = true;
      return found.map((item): HandOverItem => ({ ...item, note: undefined, orphaned: false }));
    },
    async note() {},
    async finish(id, outcome) {
      const item = items[id - 1]!;
      if (item.outcome !== undefined) return;
      item.outcome = outcome;
      for (const wake of waiters.get(id) ?? []) wake(outcome);
    },
    settled(id, options) {
      const item = items[id - 1]!;
      if (item.outcome !== undefined) return Promise.resolve(item.outcome);
      return new Promise((resolve) => {
        waiters.set(id, [...(waiters.get(id) ?? []), resolve]);
        options?.signal?.addEventListener('abort', () => resolve(undefined));
      });
    },
    onPut(listener) {
      putListeners.add(listener);
      return () => putListeners.delete(listener);
    },
    async waiting() {
      return [];
    },
    onSignal: () => () => {},
    async signal() {},
  };
  const as = (holder: string): LeasesService => ({
    holder,
    ttlMs: 1000,
    async tryAcquire(name) {
      if (held.has(name)) return undefined;
      held.add(name);
      const lease: Lease = {
        name,
        takenOver: undefined,
        previousHolder: undefined,
        lost: new AbortController().signal,
        note: async () => {},
        release: async () => {
          held.delete(name);
        },
      };
      return lease;
    },
    acquire: async () => undefined,
    abandoned: async () => [],
  });
  return { queue, as, items };
}

const warnings: string[] = [];
const logger: Logger = {
  name: 'test',
  trace() {},
  debug() {},
  info() {},
  warn: (message) => void warnings.push(message),
  error: (message) => void warnings.push(message),
  enabled: () => true,
  child: () => logger,
};

const relays: TerminalRelay[] = [];
afterEach(async () => {
  for (const relay of relays.splice(0)) await relay.stop();
  warnings.length = 0;
});

function terminal(shared: ReturnType<typeof sharedQueue>, holder: string, timeoutMs = 2000) {
  const shown: Relayed[] = [];
  const failures: DeliveryFailure[] = [];
  const relay = new TerminalRelay({
    queue: shared.queue,
    leases: shared.as(holder),
    logger,
    showHere: (item) => shown.push(item),
    failed: async (failure) => {
      failures.push(failure);
    },
    timeoutMs,
  });
  relays.push(relay);
  return { relay, shown, failures };
}

const reply = (content: string): OutgoingMessage => ({
  sessionId: 'cli:u',
  platform: 'cli',
  kind: 'reply',
  content,
  turnId: 't1',
});

const input = (content: string, terminal?: string): TurnInput => {
  const message: IncomingMessage = { sessionId: 'cli:u', platform: 'cli', content, sender: { userId: 'u' } };
  return { message: terminal === undefined ? message : markTerminal(message, terminal) };
};

describe('terminal relay', () => {
  it('#16.cli.3 names the terminal a line was typed into and tells who a turn answers', () => {
    const marked = markTerminal(
      { sessionId: 's', platform: 'cli', content: 'x', sender: { userId: 'u' }, metadata: { kept: 1 } },
      'host:1:a',
    );
    expect(marked.metadata).toEqual({ kept: 1, [CLI_TERMINAL_KEY]: 'host:1:a' });
    // Only the other terminal's line: this terminal prints nothing, the other one is answered through the relay.
    expect(audienceOf([input('b1', 'B')], 'A', true)).toEqual({ here: false, elsewhere: ['B'] });
    // A join of both: both print it.
    expect(audienceOf([input('a1', 'A'), input('b1', 'B'), input('b2', 'B')], 'A', true)).toEqual({
      here: true,
      elsewhere: ['B'],
    });
    // An input typed into no terminal (an idle prompt, say) in this terminal's session is shown here, as before.
    expect(audienceOf([input('idle')], 'A', true)).toEqual({ here: true, elsewhere: [] });
    expect(audienceOf([input('idle')], 'A', false)).toEqual({ here: false, elsewhere: [] });
  });

  it('#16.cli.4 hands a message to the terminal that asked and settles once that terminal showed it, in order', async () => {
    const shared = sharedQueue();
    const a = terminal(shared, 'A');
    const b = terminal(shared, 'B');
    await a.relay.start();
    await b.relay.start();
    const tool = { phase: 'start', name: 'current_time', callId: 'c1', turnId: 't1', sessionId: 'cli:u' };
    a.relay.sendTool(tool as ToolExecuteEvent, ['B']);
    await a.relay.sendMessage(reply('answers [B m1]'), ['B']);
    expect(b.shown).toEqual([
      { type: 'tool', event: tool },
      { type: 'message', message: reply('answers [B m1]') },
    ]);
    expect(a.shown).toEqual([]);
    expect(a.failures).toEqual([]);
    expect(shared.items.every((item) => item.outcome === 'shown')).toBe(true);
  });

  it('#16.cli.5 a message for a terminal whose process is gone becomes outbound:failed after the timeout, and the next one at once', async () => {
    const shared = sharedQueue();
    const a = terminal(shared, 'A', 100);
    await a.relay.start();
    await a.relay.sendMessage(reply('answers [B m1]'), ['B']);
    expect(a.failures.map((failure) => [failure.code, failure.platform, failure.message.turnId])).toEqual([
      ['AALIS_CLI_RELAY_TIMEOUT', 'cli', 't1'],
    ]);
    expect(a.failures[0]!.reason).toContain('100 ms');
    expect(shared.items[0]!.outcome).toBe('timeout');
    // The terminal is not waited for again: nothing more is put for it, the message fails at once.
    await a.relay.sendMessage(reply('answers [B m2]'), ['B']);
    expect(a.failures.map((failure) => failure.message.content)).toEqual(['answers [B m1]', 'answers [B m2]']);
    expect(shared.items).toHaveLength(1);
  });

  it('#16.cli.6 skips an unreadable item and finishes it', async () => {
    const shared = sharedQueue();
    const b = terminal(shared, 'B');
    await b.relay.start();
    const { id } = await shared.queue.put('platform:cli:B', 'not json');
    expect(await shared.queue.settled(id)).toBe('shown');
    expect(b.shown).toEqual([]);
    expect(warnings).toEqual(['terminal: a handed-over item could not be read; skipped']);
  });
});
