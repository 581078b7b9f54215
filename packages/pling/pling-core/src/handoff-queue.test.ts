import { describe, expect, it } from 'vitest';
import { HandoffQueue } from './handoff-queue.js';
import type { PageEventBody } from './page-events.js';
import { sensitive } from './sensitive.js';

describe('HandoffQueue', () => {
  it('requests are listed with redacted context until resolved; events tell requested and resolved', () => {
    const events: PageEventBody[] = [];
    const queue = new HandoffQueue({ now: () => 5, emit: (event) => events.push(event) });
    const context = { phone: sensitive('555-1234', 'phone') };
    const request = queue.request({ reason: 'refund over limit', context, actionId: 'refund', sessionId: 's' });
    expect(queue.getSnapshot()).toEqual([
      {
        id: 'handoff-1',
        reason: 'refund over limit',
        context: { phone: '[redacted:phone]' },
        actionId: 'refund',
        sessionId: 's',
        createdAt: 5,
      },
    ]);
    expect(context.phone.reveal()).toBe('555-1234');
    expect(queue.resolve(request.id, 'done by Bo')).toBe(true);
    expect(queue.resolve(request.id)).toBe(false);
    expect(queue.getSnapshot()).toEqual([]);
    expect(events).toEqual([
      { type: 'handoff:requested', request },
      { type: 'handoff:resolved', id: 'handoff-1', by: 'user', note: 'done by Bo' },
    ]);
  });

  it('clear() resolves all open requests as cleared; a request needs a reason', () => {
    const events: PageEventBody[] = [];
    const queue = new HandoffQueue({ now: () => 1, emit: (event) => events.push(event) });
    queue.request({ reason: 'a' });
    queue.request({ reason: 'b' });
    expect(queue.clear()).toBe(2);
    expect(queue.getSnapshot()).toEqual([]);
    expect(events.slice(2)).toEqual([
      { type: 'handoff:resolved', id: 'handoff-1', by: 'cleared' },
      { type: 'handoff:resolved', id: 'handoff-2', by: 'cleared' },
    ]);
    expect(() => queue.request({ reason: ' ' })).toThrow(/INVALID_HANDOFF: 人工接力需要 reason/);
  });
});
