import { describe, expect, it } from 'vitest';
import { applyQueueChange, queueChange, WAITING_INPUTS } from './queue-changes.js';
import type { WaitingInput } from './timeline-types.js';

const input = (key: string, disposition: WaitingInput['disposition'] = 'queue'): WaitingInput => ({
  key,
  messageId: key,
  text: `text ${key}`,
  sender: { platform: 'webui', userId: 'owner' },
  at: 1,
  disposition,
});

describe('queue events carry changes', () => {
  it('a burst of sends: each event carries only its own new entry, and applying them rebuilds the list', () => {
    let list: WaitingInput[] = [];
    let seen: WaitingInput[] = [];
    let carried = 0;
    for (let index = 0; index < 600; index++) {
      const next = [...list, input(`m${index}`)];
      const event = queueChange(list, next)!;
      carried += event.added.length + event.removed.length;
      seen = applyQueueChange(seen, event, WAITING_INPUTS);
      list = next;
    }
    expect(carried).toBe(600);
    expect(seen).toEqual(list);
  });

  it('removals from the front, disposition changes, and a reorder sent again whole', () => {
    const before = [input('a', 'join'), input('b'), input('c')];
    const after = [input('b', 'join'), input('c'), input('d')];
    const event = queueChange(before, after)!;
    expect(event).toEqual({ type: 'queue', removed: ['a'], dispositions: { b: 'join' }, added: [input('d')] });
    expect(applyQueueChange(before, event, WAITING_INPUTS)).toEqual(after);
    const reordered = [input('c'), input('b', 'join')];
    const whole = queueChange(after, reordered)!;
    expect(whole.removed).toEqual(['b', 'c', 'd']);
    expect(applyQueueChange(after, whole, WAITING_INPUTS)).toEqual(reordered);
    expect(queueChange(after, after)).toBeUndefined();
  });
});
