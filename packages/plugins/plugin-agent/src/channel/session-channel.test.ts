import type { IncomingMessage } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { type Batch, commitReply, type PendingInput, SessionChannel } from './session-channel.js';

const message = (content: string, extra: Partial<IncomingMessage> = {}): IncomingMessage => ({
  sessionId: 's',
  platform: 'cli',
  sender: { userId: 'u' },
  content,
  ...extra,
});

function pending(content: string, extra: Partial<IncomingMessage> = {}) {
  const record = { settled: false, opened: undefined as Batch | undefined };
  const input: PendingInput = {
    message: message(content, extra),
    settle: () => {
      record.settled = true;
    },
    open: (batch) => {
      record.opened = batch;
    },
  };
  return { input, record };
}

function channel() {
  const log: string[] = [];
  const waiting: string[][] = [];
  const archived: string[] = [];
  const ch = new SessionChannel('s', {
    archiveReleased: async (messages) => {
      archived.push(...messages.map((m) => m.content));
    },
    queueChanged: (_id, list) => waiting.push(list.map((m) => m.content)),
    log: (event) => log.push(`${event.kind}:${event.message.content}`),
  });
  return { ch, log, waiting, archived };
}

describe('新消息怎么处理', () => {
  it('开轮: an idle session opens a turn for the first input', () => {
    const { ch } = channel();
    expect(ch.place(pending('a').input)).toBe('open');
  });

  it('叠加: a real-person input joins a running real-person turn, whoever says it', () => {
    const { ch, waiting } = channel();
    const a = pending('a');
    ch.place(a.input);
    ch.begin('t1', [a.input], true);
    expect(ch.place(pending('b', { sender: { userId: 'other' } }).input)).toBe('join');
    expect(waiting.at(-1)).toEqual(['b']);
    expect(ch.takeJoins().map((p) => p.message.content)).toEqual(['b']);
    expect(ch.running?.inputs.map((p) => p.message.content)).toEqual(['a', 'b']);
  });

  it('排队: an injection never joins, and nothing joins an injection’s turn', () => {
    const { ch } = channel();
    const human = pending('a');
    ch.begin('t1', [human.input], true);
    expect(ch.place(pending('cron', { source: 'scheduler' }).input)).toBe('queue');
    const other = channel().ch;
    other.begin('t2', [pending('cron', { source: 'scheduler' }).input], false);
    expect(other.place(pending('person').input)).toBe('queue');
  });

  it('排队: real-person input arriving while the final reply is written queues for the next turn', () => {
    const { ch } = channel();
    const a = pending('a');
    ch.begin('t1', [a.input], true);
    const early = pending('early');
    ch.place(early.input);
    ch.closeJoins();
    expect(ch.place(pending('late').input)).toBe('queue');
    expect(ch.takeJoins()).toEqual([]);
    expect(ch.waiting().map((m) => m.content)).toEqual(['early', 'late']);
  });

  it('开轮: after a turn, all queued real-person inputs open the next turn together, marked as arrived meanwhile', async () => {
    const { ch } = channel();
    const a = pending('a');
    ch.begin('t1', [a.input], true);
    ch.closeJoins();
    const b = pending('b');
    const cron = pending('cron', { source: 'scheduler' });
    const c = pending('c');
    ch.place(b.input);
    ch.place(cron.input);
    ch.place(c.input);
    await ch.finish();
    expect(a.record.settled).toBe(true);
    expect(b.record.opened?.inputs.map((p) => p.message.content)).toEqual(['b', 'c']);
    expect(b.record.opened?.fromQueue).toBe(true);
    expect(cron.record.opened).toBeUndefined();
  });

  it('inputs that miss the join keep their arrival place, behind what was queued before them', async () => {
    const { ch, waiting } = channel();
    ch.begin('t1', [pending('a').input], true);
    const cron = pending('cron', { source: 'scheduler' });
    const late = pending('late');
    ch.place(cron.input);
    expect(ch.place(late.input)).toBe('join');
    expect(waiting.at(-1)).toEqual(['cron', 'late']);
    ch.closeJoins();
    expect(ch.waiting().map((m) => m.content)).toEqual(['cron', 'late']);
    await ch.finish();
    expect(cron.record.opened?.inputs.map((p) => p.message.content)).toEqual(['cron']);
    expect(late.record.opened).toBeUndefined();
    // A stop closes the joins the same way.
    const other = channel();
    other.ch.begin('t2', [pending('b').input], true);
    const queued = pending('queued', { source: 'scheduler' });
    const joining = pending('joining');
    other.ch.place(queued.input);
    other.ch.place(joining.input);
    other.ch.stop({});
    expect(other.ch.waiting().map((m) => m.content)).toEqual(['queued', 'joining']);
  });

  it('past the commit point a stop stops nothing and abort says so', () => {
    const { ch } = channel();
    const running = ch.begin('t1', [pending('a').input], true);
    expect(commitReply(running, { deletionBegun: false })).toBe(true);
    expect(ch.stop({ reason: 'late' })).toBe(false);
    expect(running.controller.signal.aborted).toBe(false);
    const stopped = channel().ch;
    const turn = stopped.begin('t2', [pending('b').input], true);
    expect(stopped.stop({})).toBe(true);
    expect(commitReply(turn, { deletionBegun: false })).toBe(false);
    const deleted = channel().ch.begin('t3', [pending('c').input], true);
    expect(commitReply(deleted, { deletionBegun: true })).toBe(false);
    expect(deleted.controller.signal.aborted).toBe(true);
  });

  it('开轮: an injection at the queue head opens a turn of its own', async () => {
    const { ch } = channel();
    ch.begin('t1', [pending('a').input], true);
    ch.closeJoins();
    const cron = pending('cron', { source: 'scheduler' });
    const b = pending('b');
    ch.place(cron.input);
    ch.place(b.input);
    await ch.finish();
    expect(cron.record.opened?.inputs.map((p) => p.message.content)).toEqual(['cron']);
  });

  it('停下: stop ends the running turn only; waiting inputs open the next turn', async () => {
    const { ch } = channel();
    const a = pending('a');
    ch.begin('t1', [a.input], true);
    const b = pending('b');
    ch.place(b.input);
    expect(ch.stop({ by: { platform: 'cli', userId: 'u' } })).toBe(true);
    expect(ch.running?.controller.signal.aborted).toBe(true);
    expect(ch.place(pending('c').input)).toBe('queue');
    await ch.finish();
    expect(b.record.opened?.inputs.map((p) => p.message.content)).toEqual(['b', 'c']);
  });

  it('abort with a turnId that does not match stops nothing', () => {
    const { ch } = channel();
    ch.begin('t1', [pending('a').input], true);
    expect(ch.stop({ turnId: 'other' })).toBe(false);
    expect(ch.running?.controller.signal.aborted).toBe(false);
  });

  it('abort with queued releases waiting inputs, archived without turn id after the running turn settles', async () => {
    const { ch, archived } = channel();
    ch.begin('t1', [pending('a').input], true);
    const b = pending('b');
    ch.place(b.input);
    ch.stop({ release: 'archive' });
    expect(archived).toEqual([]);
    expect(b.record.settled).toBe(false);
    await ch.finish();
    expect(archived).toEqual(['b']);
    expect(b.record.settled).toBe(true);
    expect(b.record.opened).toBeUndefined();
  });

  it('会话删除: dropping releases waiting inputs without archiving', async () => {
    const { ch, archived } = channel();
    ch.begin('t1', [pending('a').input], true);
    const b = pending('b');
    ch.place(b.input);
    ch.stop({ release: 'drop' });
    expect(b.record.settled).toBe(true);
    await ch.finish();
    expect(archived).toEqual([]);
  });

  it('an input arriving after a batch was handed to its opener, before its turn began, queues', async () => {
    const { ch } = channel();
    ch.begin('t1', [pending('a').input], true);
    ch.closeJoins();
    const b = pending('b');
    ch.place(b.input);
    await ch.finish();
    expect(b.record.opened).toBeDefined();
    expect(ch.place(pending('c').input)).toBe('queue');
    ch.begin('t2', b.record.opened!.inputs, true);
    expect(ch.place(pending('d').input)).toBe('join');
  });

  it('a held session opens nothing until released', async () => {
    const { ch } = channel();
    ch.begin('t1', [pending('a').input], true);
    ch.closeJoins();
    const b = pending('b');
    ch.place(b.input);
    ch.hold();
    await ch.finish();
    expect(b.record.opened).toBeUndefined();
    ch.unhold();
    ch.openNext();
    expect(b.record.opened?.inputs).toHaveLength(1);
  });
});
