import { describe, expect, it } from 'vitest';
import { ConfirmationQueue } from './confirmation-queue.js';
import type { PageEventBody } from './page-events.js';
import { sensitive } from './sensitive.js';

function setup() {
  const events: PageEventBody[] = [];
  let time = 100;
  const queue = new ConfirmationQueue({ now: () => time++, emit: (event) => events.push(event) });
  const input = (actionId = 'delete_order') => ({
    actionId,
    description: 'Deletes',
    danger: true,
    arguments: { id: 7, card: sensitive('4111', 'card') },
  });
  return { queue, events, input };
}

describe('ConfirmationQueue', () => {
  it('pending requests carry id, action id, redacted args and createdAt; approve resolves the waiter', async () => {
    const { queue, events, input } = setup();
    const decision = queue.request(input());
    const [request] = queue.getSnapshot();
    expect(request).toEqual({
      id: 'confirmation-1',
      actionId: 'delete_order',
      description: 'Deletes',
      danger: true,
      arguments: { id: 7, card: '[redacted:card]' },
      createdAt: 100,
    });
    expect(queue.approve('confirmation-1')).toBe(true);
    expect(queue.approve('confirmation-1')).toBe(false);
    await expect(decision).resolves.toEqual({ approved: true });
    expect(queue.getSnapshot()).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(['confirmation:requested', 'confirmation:approved']);
  });

  it('reject(id, reason) resolves not-approved with the reason and emits confirmation:rejected', async () => {
    const { queue, events, input } = setup();
    const decision = queue.request(input());
    expect(queue.reject('confirmation-1', 'wrong order')).toBe(true);
    expect(queue.reject('missing')).toBe(false);
    await expect(decision).resolves.toEqual({ approved: false, by: 'user', reason: 'wrong order' });
    expect(events.at(-1)).toEqual({
      type: 'confirmation:rejected',
      id: 'confirmation-1',
      actionId: 'delete_order',
      by: 'user',
      reason: 'wrong order',
    });
  });

  it('clear() rejects every pending request; subscribers hear each change and snapshots are stable', async () => {
    const { queue, input } = setup();
    let notified = 0;
    const unsubscribe = queue.subscribe(() => notified++);
    const first = queue.request(input('a'));
    const second = queue.request(input('b'));
    const snapshot = queue.getSnapshot();
    expect(queue.getSnapshot()).toBe(snapshot);
    expect(snapshot.map((request) => request.actionId)).toEqual(['a', 'b']);
    expect(queue.clear()).toBe(2);
    expect(queue.clear()).toBe(0);
    await expect(first).resolves.toMatchObject({ approved: false, by: 'cleared' });
    await expect(second).resolves.toMatchObject({ approved: false, by: 'cleared' });
    expect(notified).toBe(3);
    unsubscribe();
    queue.request(input());
    expect(notified).toBe(3);
  });

  it('an aborted signal takes the request out of the queue and rejects the waiter', async () => {
    const { queue, events, input } = setup();
    const controller = new AbortController();
    const decision = queue.request(input(), controller.signal);
    controller.abort(new Error('cancelled run'));
    await expect(decision).rejects.toThrow('cancelled run');
    expect(queue.getSnapshot()).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'confirmation:rejected', by: 'cancelled' });
    await expect(queue.request(input(), controller.signal)).rejects.toThrow('cancelled run');
    expect(queue.getSnapshot()).toEqual([]);
  });
});
