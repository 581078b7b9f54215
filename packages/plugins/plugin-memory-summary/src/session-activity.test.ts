// The divider never lands inside a running turn, and turns opening during the write wait for it.
import { describe, expect, it } from 'vitest';
import { SessionActivity } from './session-activity.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('SessionActivity', () => {
  it('holds the write until the running turn has settled', async () => {
    const activity = new SessionActivity();
    const turn = deferred();
    const order: string[] = [];
    const running = activity.aroundTurn('s', async () => {
      await turn.promise;
      order.push('turn ended');
    });
    expect(activity.isRunning('s')).toBe(true);
    const held = activity.holdTurns('s').then((release) => {
      order.push('write');
      release();
    });
    await Promise.resolve();
    turn.resolve();
    await Promise.all([running, held]);
    expect(order).toEqual(['turn ended', 'write']);
  });

  it('a turn opening during the write waits until it is released', async () => {
    const activity = new SessionActivity();
    const release = await activity.holdTurns('s');
    const order: string[] = [];
    const turn = activity.aroundTurn('s', async () => {
      order.push('turn');
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    order.push('released');
    release();
    await turn;
    expect(order).toEqual(['released', 'turn']);
  });

  it('other sessions are not held', async () => {
    const activity = new SessionActivity();
    const release = await activity.holdTurns('a');
    let ran = false;
    await activity.aroundTurn('b', async () => {
      ran = true;
    });
    expect(ran).toBe(true);
    release();
  });

  it('waiting for idle stops when the signal aborts', async () => {
    const activity = new SessionActivity();
    const turn = deferred();
    const running = activity.aroundTurn('s', () => turn.promise);
    const controller = new AbortController();
    const waiting = activity.idle('s', controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    turn.resolve();
    await running;
    expect(activity.isRunning('s')).toBe(false);
  });
});
