// A consistent timeline of one session: the archive read and the running turn's unstored part taken at one moment
// with the session's sequence number, so the events after that number continue it exactly.
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import type { Timeline, TimelineEntry, TimelineTurn } from '@aalis/session-client';
import { rememberLastCall } from './last-calls.js';
import type { ServerDeps } from './server-deps.js';
import { attachVersions, buildTimelineEntries } from './timeline-builder.js';
import { lastCallOf } from './usage-request.js';

/** How many assistant messages of the turn the archive holds (each is one segment of it). */
function storedSegments(messages: readonly Message[], turnId: string): number {
  return messages.filter(
    (message) => message.role === 'assistant' && message.metadata?.[WellKnownMetadataKeys.TurnId] === turnId,
  ).length;
}

export function attachmentUrl(sessionId: string, messageId: string, index: number): string {
  return `/api/v1/attachments/${encodeURIComponent(sessionId)}/${encodeURIComponent(messageId)}/${index}`;
}

/**
 * Reads the archive (again, when it changed during the read) and returns a function that completes the timeline
 * synchronously: call it and send the frame in the same tick, so no event falls between the two.
 */
export async function prepareTimeline(
  deps: ServerDeps,
  sessionId: string,
): Promise<() => { timeline: Timeline; seq: number }> {
  const live = deps.live(sessionId);
  let entries: TimelineEntry[] = [];
  let messages: Message[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const version = live.archiveVersion;
    messages = deps.memory.available ? await deps.memory.use.readAll(sessionId) : [];
    entries = buildTimelineEntries(messages, {
      room: deps.kinds.get(sessionId) === 'room',
      rawText: (id) => deps.rawTexts.get(id),
      clientIdOf: (id) => deps.clientIds.get(id),
      durationOf: (callId) => deps.durations.get(callId),
      attachmentUrl: (messageId, index) => attachmentUrl(sessionId, messageId, index),
    });
    if (live.archiveVersion === version) break;
  }
  rememberLastCall(live, lastCallOf(messages));
  return () => {
    const running = live.turn;
    let all = entries;
    if (running) {
      let turn = all.find((entry): entry is TimelineTurn => entry.kind === 'turn' && entry.turnId === running.turnId);
      if (!turn) {
        turn = {
          kind: 'turn',
          turnId: running.turnId,
          inputs: [],
          items: [],
          running: true,
          startedAt: running.startedAt,
        };
        all = [...all, turn];
      }
      turn.running = true;
      // The archive may already hold the segment streaming now, when its "stored" news has not arrived yet (a
      // turn on another process): then what streamed is in the entries already.
      if (storedSegments(messages, running.turnId) <= running.segment) turn.items.push(...live.unstoredItems());
    }
    all = attachVersions(all);
    const limit = deps.config.historyEntries;
    const truncated = all.length > limit;
    const timeline: Timeline = {
      sessionId,
      entries: truncated ? all.slice(-limit) : all,
      waiting: [...live.waiting],
      truncated,
    };
    return { timeline, seq: live.seq };
  };
}
