// Replies of a turn run here handed to the terminals of other processes: against the real hand-over queue
// (plugin-storage on SQLite) and the app's real event bus; the terminal taking its queue is played by the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TerminalItem } from '@aalis/api-agent';
import { type HandOverService, storage } from '@aalis/api-storage';
import type { ToolExecuteEvent } from '@aalis/api-tools';
import storagePlugin from '@aalis/plugin-storage';
import { type IncomingMessage, type OutgoingMessage, WellKnownMetadataKeys } from '@aalis/schema-message';
import { type BootedApp, bootApp } from '@aalis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingInput, RunningTurn } from '../channel/session-channel.js';
import { TerminalForwarding } from './terminal-forwarding.js';

const opened: Array<{ booted: BootedApp; dir: string }> = [];
afterEach(async () => {
  for (const { booted, dir } of opened.splice(0)) {
    await booted.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function setUp(timeoutMs = 5000) {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-forwarding-'));
  const booted = await bootApp({ plugins: [[storagePlugin, { dataDir: dir }]] });
  opened.push({ booted, dir });
  const queue = booted.app.services.selected(storage)!.impl.handOver();
  const warnings: string[] = [];
  const deps = {
    events: booted.app.events,
    log: { warn: (text: string) => void warnings.push(text) },
  };
  const forwarding = new TerminalForwarding(deps, { queue, holder: 'OWNER', timeoutMs });
  return { booted, queue, forwarding, warnings };
}

/** A running turn whose inputs were typed into these terminals (undefined: typed into none). */
function turn(turnId: string, terminals: Array<string | undefined>): RunningTurn & { end(): void } {
  let end!: () => void;
  const settled = new Promise<void>((resolve) => {
    end = resolve;
  });
  const inputs = terminals.map((terminal): PendingInput => {
    const message: IncomingMessage = {
      sessionId: 'cli:u',
      platform: 'cli',
      sender: { userId: 'u' },
      content: `line of ${terminal}`,
      ...(terminal === undefined ? {} : { metadata: { [WellKnownMetadataKeys.Terminal]: terminal } }),
    };
    return { message, settle() {}, open() {} };
  });
  return {
    turnId,
    human: true,
    controller: new AbortController(),
    inputs,
    acceptingJoins: true,
    committed: false,
    releasedToArchive: [],
    settled,
    markSettled: end,
    end,
  };
}

const reply = (content: string, turnId = 't1'): OutgoingMessage => ({
  sessionId: 'cli:u',
  platform: 'cli',
  kind: 'reply',
  content,
  turnId,
});

/** Plays terminal `terminal`: takes its queue as items arrive, finishing each as shown. */
function terminalTaking(queue: HandOverService, terminal: string) {
  const shown: TerminalItem[] = [];
  let stopped = false;
  void (async () => {
    while (!stopped) {
      for (const item of await queue.take(`platform:cli:${terminal}`)) {
        shown.push(JSON.parse(item.payload) as TerminalItem);
        await queue.finish(item.id, 'shown');
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    shown,
    stop: () => {
      stopped = true;
    },
  };
}

describe('terminal forwarding', () => {
  it('hands a turn’s tool line and message to the terminal whose line it answers, and waits until shown', async () => {
    const { booted, queue, forwarding } = await setUp();
    const running = turn('t1', ['B']);
    forwarding.track(running);
    const b = terminalTaking(queue, 'B');
    const tool = { phase: 'start', name: 'current_time', callId: 'c1', turnId: 't1', sessionId: 'cli:u' };
    booted.app.events.emit('tool:execute', tool as ToolExecuteEvent);
    await booted.app.events.emitAsync('outbound:message', reply('answers B'));
    // emitAsync returned: the terminal had shown it (the message waits for it).
    expect(b.shown).toEqual([
      { type: 'tool', event: tool },
      { type: 'message', message: reply('answers B') },
    ]);
    b.stop();
  });

  it('forwards to every other terminal a turn’s inputs name (joins included), never to this process’s own', async () => {
    const { booted, forwarding } = await setUp();
    const running = turn('t1', ['B', 'OWNER', undefined, 'B']);
    forwarding.track(running);
    expect(forwarding.terminalsOf('t1')).toEqual(['B']);
    // A join typed into a third terminal: its replies go there too from now on.
    running.inputs.push(turn('x', ['C']).inputs[0]!);
    expect(forwarding.terminalsOf('t1')).toEqual(['B', 'C']);
    expect(forwarding.terminalsOf('another turn')).toEqual([]);
    running.end();
    await running.settled;
    await new Promise((resolve) => setImmediate(resolve));
    expect(forwarding.terminalsOf('t1')).toEqual([]);
    // Another platform's message of the turn is not a terminal's.
    const failures = booted.capture('outbound:failed');
    forwarding.track(turn('t2', ['GONE']));
    await booted.app.events.emitAsync('outbound:message', { ...reply('for webui', 't2'), platform: 'webui' });
    expect(failures).toEqual([]);
  });

  it('a message for a terminal whose process is gone becomes outbound:failed after the timeout, and the next one at once', async () => {
    const { booted, queue, forwarding, warnings } = await setUp(100);
    const failures = booted.capture('outbound:failed');
    forwarding.track(turn('t1', ['B']));
    await booted.app.events.emitAsync('outbound:message', reply('answers [B m1]'));
    expect(failures.map((failure) => [failure.code, failure.platform, failure.message.turnId])).toEqual([
      ['AALIS_CLI_RELAY_TIMEOUT', 'cli', 't1'],
    ]);
    expect(failures[0]!.reason).toContain('100 ms');
    expect(warnings).toEqual(['terminal: a message was not shown on another terminal (AALIS_CLI_RELAY_TIMEOUT)']);
    // The terminal is not waited for again: the next message fails without being put (nothing waits in its queue).
    await booted.app.events.emitAsync('outbound:message', reply('answers [B m2]'));
    expect(failures.map((failure) => failure.message.content)).toEqual(['answers [B m1]', 'answers [B m2]']);
    expect(await queue.take('platform:cli:B')).toEqual([]);
  });
});
