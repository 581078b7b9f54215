// The terminal relay against an in-memory hand-over queue shared by two "processes" (the real queues on SQLite and
// PostgreSQL are tested in plugin-storage; the real processes in runtime/src/chat-multi-process.test.ts).
import type { TurnInput } from '@aalis/api-agent';
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

function terminal(shared: ReturnType<typeof sharedQueue>, holder: string) {
  const shown: Relayed[] = [];
  const relay = new TerminalRelay({
    queue: shared.queue,
    leases: shared.as(holder),
    logger,
    showHere: (item) => shown.push(item),
  });
  relays.push(relay);
  return { relay, shown };
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
  it('names the terminal a line was typed into and tells who a turn answers', () => {
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

  it('shows what other processes put in its queue, in order, finishing each as shown (not another terminal’s)', async () => {
    const shared = sharedQueue();
    const a = terminal(shared, 'A');
    const b = terminal(shared, 'B');
    await a.relay.start();
    await b.relay.start();
    const tool = { phase: 'start', name: 'current_time', callId: 'c1', turnId: 't1', sessionId: 'cli:u' };
    const items: Relayed[] = [
      { type: 'tool', event: tool as ToolExecuteEvent },
      { type: 'message', message: reply('answers [B m1]') },
    ];
    const ids = [];
    for (const item of items) ids.push((await shared.queue.put('platform:cli:B', JSON.stringify(item))).id);
    for (const id of ids) expect(await shared.queue.settled(id)).toBe('shown');
    expect(b.shown).toEqual(items);
    expect(a.shown).toEqual([]);
  });

  it('skips an unreadable item and finishes it', async () => {
    const shared = sharedQueue();
    const b = terminal(shared, 'B');
    await b.relay.start();
    const { id } = await shared.queue.put('platform:cli:B', 'not json');
    expect(await shared.queue.settled(id)).toBe('shown');
    expect(b.shown).toEqual([]);
    expect(warnings).toEqual(['terminal: a handed-over item could not be read; skipped']);
  });
});
