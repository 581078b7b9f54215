// A timeline taken while a turn streams: what streamed is added once, also when the archive already holds the
// segment before the news that it was stored arrived (a turn relayed from another process).
import { WellKnownMetadataKeys as Keys, type Message } from '@aalis/schema-message';
import type { TimelineTurn } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { LiveSession } from './live-session.js';
import { BoundedMap, type ServerDeps } from './server-deps.js';
import { prepareTimeline } from './timeline-snapshot.js';

function depsWith(messages: Message[], live: LiveSession): ServerDeps {
  // Only what prepareTimeline reads; the rest of the server is not involved.
  return {
    config: { historyEntries: 400 },
    live: () => live,
    memory: { available: true, use: { readAll: async () => messages } },
    kinds: new Map(),
    rawTexts: new BoundedMap(10),
    clientIds: new BoundedMap(10),
    durations: new BoundedMap(10),
  } as unknown as ServerDeps;
}

const input: Message = {
  id: 'u1',
  role: 'user',
  content: 'hi',
  metadata: { [Keys.TurnId]: 't1', [Keys.TurnEntry]: 'opened' },
  timestamp: 1,
};
const firstSegment: Message = {
  id: 'a1',
  role: 'assistant',
  content: 'Hello there.',
  metadata: { [Keys.TurnId]: 't1' },
};

function streamed(): LiveSession {
  const live = new LiveSession('s1');
  live.emit({ type: 'turn.started', turnId: 't1', at: 1 });
  live.emit({ type: 'text.delta', turnId: 't1', segment: 0, delta: 'Hello there.' });
  return live;
}

const texts = (turn: TimelineTurn | undefined) =>
  (turn?.items ?? []).flatMap((item) => (item.kind === 'text' ? [item.text] : []));

describe('prepareTimeline during a turn', () => {
  it('adds the streamed text of a segment the archive does not hold yet', async () => {
    const live = streamed();
    const { timeline } = (await prepareTimeline(depsWith([input], live), 's1'))();
    const turn = timeline.entries.find((entry): entry is TimelineTurn => entry.kind === 'turn');
    expect(turn?.running).toBe(true);
    expect(texts(turn)).toEqual(['Hello there.']);
  });

  it('does not add it again when the archive holds the segment before the news that it was stored', async () => {
    const live = streamed();
    const { timeline } = (await prepareTimeline(depsWith([input, firstSegment], live), 's1'))();
    const turn = timeline.entries.find((entry): entry is TimelineTurn => entry.kind === 'turn');
    expect(turn?.running).toBe(true);
    expect(texts(turn)).toEqual(['Hello there.']);
  });
});
