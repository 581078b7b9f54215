import { describe, expect, it } from 'vitest';
import { InputTracker } from './input-tracker.js';

function turn(ids: string[]) {
  return () => ids;
}

describe('InputTracker', () => {
  it('says nothing about an input that opened a turn directly', () => {
    const tracker = new InputTracker();
    tracker.submitted('a', 'first');
    expect(tracker.turnStarted('t1', turn(['a']))).toEqual([]);
    expect(tracker.turnRunning).toBe(true);
    expect(tracker.turnEnded('t1')).toEqual([]);
    expect(tracker.turnRunning).toBe(false);
  });

  it('reports a join when the input leaves the waiting list into the running turn', () => {
    const tracker = new InputTracker();
    const inputs = ['a'];
    tracker.submitted('a', 'first');
    tracker.turnStarted('t1', () => inputs);
    tracker.submitted('b', 'second');
    expect(tracker.queueChanged(['b'])).toEqual([]);
    expect(tracker.waitingCount).toBe(1);
    // takeJoins: the waiting list empties first; the turn's live input list gets the input right after.
    expect(tracker.queueChanged([])).toEqual([]);
    inputs.push('b');
    expect(tracker.confirmJoins()).toEqual([{ fate: 'joined', messageId: 'b', text: 'second' }]);
    expect(tracker.turnEnded('t1')).toEqual([]);
  });

  it('confirms a join at the turn end at the latest', () => {
    const tracker = new InputTracker();
    const inputs = ['a'];
    tracker.submitted('a', 'first');
    tracker.turnStarted('t1', () => inputs);
    tracker.submitted('b', 'second');
    tracker.queueChanged(['b']);
    tracker.queueChanged([]);
    inputs.push('b');
    expect(tracker.turnEnded('t1')).toEqual([{ fate: 'joined', messageId: 'b', text: 'second' }]);
  });

  it('reports a queued input when the running turn ends while it still waits', () => {
    const tracker = new InputTracker();
    tracker.submitted('a', 'first');
    tracker.turnStarted('t1', turn(['a']));
    tracker.submitted('b', 'second');
    tracker.queueChanged(['b']);
    expect(tracker.turnEnded('t1')).toEqual([{ fate: 'queued', messageId: 'b', text: 'second' }]);
    // It then opens the next turn: nothing more to say.
    expect(tracker.queueChanged([])).toEqual([]);
    expect(tracker.turnStarted('t2', turn(['b']))).toEqual([]);
  });

  it('reports a queued input that leaves the list while no turn runs', () => {
    const tracker = new InputTracker();
    tracker.submitted('b', 'second');
    tracker.queueChanged(['b']);
    expect(tracker.queueChanged([])).toEqual([{ fate: 'queued', messageId: 'b', text: 'second' }]);
  });

  it('reports an input released during a turn (stopped with what waits) as released', () => {
    const tracker = new InputTracker();
    tracker.submitted('a', 'first');
    tracker.turnStarted('t1', turn(['a']));
    tracker.submitted('b', 'second');
    tracker.queueChanged(['b']);
    tracker.queueChanged([]);
    expect(tracker.confirmJoins()).toEqual([]);
    expect(tracker.turnEnded('t1')).toEqual([{ fate: 'released', messageId: 'b', text: 'second' }]);
  });

  it('forgets inputs the gateway settled without a turn (commands)', () => {
    const tracker = new InputTracker();
    tracker.submitted('c', '/help');
    tracker.settled('c');
    tracker.turnStarted('t1', turn(['c']));
    expect(tracker.turnEnded('t1')).toEqual([]);
    expect(tracker.waitingCount).toBe(0);
  });

  it('ignores the end of another turn', () => {
    const tracker = new InputTracker();
    tracker.turnStarted('t1', turn([]));
    expect(tracker.turnEnded('other')).toEqual([]);
    expect(tracker.turnRunning).toBe(true);
  });
});
