// The live sessions kept per process: idle ones nobody watches are dropped, the others kept.
import { describe, expect, it } from 'vitest';
import { dropIdle, LiveSession } from './live-session.js';

describe('dropIdle', () => {
  it('drops only live sessions without subscribers, turn or waiting inputs, idle long enough', () => {
    const at = (live: LiveSession, lastActivity: number) => Object.assign(live, { lastActivity });
    const idle = at(new LiveSession('idle'), 0);
    const recent = at(new LiveSession('recent'), 9_000);
    const watched = at(new LiveSession('watched'), 0);
    watched.subscribers.add({ deliver() {} });
    const running = new LiveSession('running');
    running.emit({ type: 'turn.started', turnId: 't1', at: 0 });
    at(running, 0);
    const waiting = new LiveSession('waiting');
    waiting.emit({
      type: 'queue',
      removed: [],
      dispositions: {},
      added: [{ key: 'x', text: 'x', sender: { platform: 'webui' }, at: 0, disposition: 'queue' }],
    });
    at(waiting, 0);
    const lives = new Map([idle, recent, watched, running, waiting].map((live) => [live.sessionId, live]));
    idle.emit({ type: 'settings.changed', key: 'llm' });
    at(idle, 0);
    const lastSeqs = new Map<string, number>();
    expect(dropIdle(lives, lastSeqs, 5_000, 10_000)).toBe(1);
    expect([...lives.keys()]).toEqual(['recent', 'watched', 'running', 'waiting']);
    expect(lastSeqs).toEqual(new Map([['idle', 1]]));
  });

  it('a live session made again goes on from the dropped one’s number: resuming from it gets exactly what came after', () => {
    const again = new LiveSession('idle', undefined, 7);
    again.emit({ type: 'settings.changed', key: 'llm' });
    expect(again.since(7)?.map((entry) => entry.seq)).toEqual([8]);
    // From before the drop: the events in between are gone, so a fresh timeline.
    expect(again.since(3)).toBeUndefined();
  });
});
