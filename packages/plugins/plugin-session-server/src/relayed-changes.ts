// Applies another process's live changes here (live-relay.ts): its events go to this process's subscribers with
// this process's own sequence numbers (so the resume rules hold per process), the running turn is followed for
// timelines taken here, and the session list follows its turns. A process that stops relaying without ending its
// turns (it died) has them ended here as stopped, as the process that takes its sessions over records them.

import type { SessionEvent } from '@aalis/session-client';
import { announceById, markReadByWatchers, refreshTimeline } from './host-listeners.js';
import type { RelayListener } from './live-relay.js';
import type { RelayNote } from './live-session.js';
import type { ServerDeps } from './server-deps.js';

/**
 * An input sent through this process's socket may run on another process (handed to the session's owner): what
 * only the accepting process knows of it (the text as typed, the client's message id) is filled in here, so the
 * sending tab matches the input with its optimistic bubble.
 */
function withLocalInputs(deps: ServerDeps, event: SessionEvent): SessionEvent {
  if (event.type === 'input') {
    const messageId = event.input.messageId;
    if (messageId === undefined) return event;
    const raw = deps.rawTexts.get(messageId);
    const clientMessageId = deps.clientIds.get(messageId);
    if (raw === undefined && clientMessageId === undefined) return event;
    return {
      ...event,
      input: {
        ...event.input,
        ...(raw !== undefined ? { text: raw } : {}),
        ...(clientMessageId !== undefined ? { clientMessageId } : {}),
      },
    };
  }
  if (event.type === 'queue') {
    return {
      ...event,
      added: event.added.map((waiting) => {
        const raw = waiting.messageId !== undefined ? deps.rawTexts.get(waiting.messageId) : undefined;
        return raw !== undefined ? { ...waiting, text: raw } : waiting;
      }),
    };
  }
  return event;
}

/** Local changes the others do not need: each process sends its own deletion and settings events and snapshots. */
export function relayable(note: RelayNote): boolean {
  if (note.t !== 'event') return true;
  const { event } = note;
  if (event.type === 'session.deleted' || event.type === 'settings.changed') return false;
  return !(event.type === 'usage' && event.usage.turnId === undefined);
}

export function relayListener(deps: ServerDeps): RelayListener {
  /** Session id → the process whose turn runs there, as relayed. */
  const remoteTurns = new Map<string, string>();
  return {
    apply(origin, sessionId, note) {
      const live = deps.live(sessionId);
      if (note.t === 'listed') {
        void announceById(deps, sessionId);
        return;
      }
      if (note.t === 'stored') {
        live.archiveVersion += 1;
        live.segmentStored(note.turnId, note.final, { relayed: true });
        return;
      }
      if (note.t === 'refresh') {
        live.archiveVersion += 1;
        refreshTimeline(deps, sessionId);
        return;
      }
      const event = withLocalInputs(deps, note.event);
      // Whatever is not streamed text may have changed the archive a timeline read here is reading.
      if (event.type !== 'text.delta' && event.type !== 'reasoning.delta' && event.type !== 'tool.progress') {
        live.archiveVersion += 1;
      }
      if (event.type === 'turn.started') live.supersede(event.turnId);
      live.emit(event, { relayed: true });
      switch (event.type) {
        case 'turn.started':
          remoteTurns.set(sessionId, origin);
          if (live.turn) live.turn.origin = origin;
          void announceById(deps, sessionId);
          return;
        case 'turn.ended':
          remoteTurns.delete(sessionId);
          markReadByWatchers(deps, sessionId);
          void announceById(deps, sessionId);
          return;
        case 'session.updated':
          void announceById(deps, sessionId);
          return;
        case 'tool.ended':
          deps.durations.set(event.callId, event.durationMs);
          return;
      }
    },
    gone(origin) {
      for (const [sessionId, from] of [...remoteTurns]) {
        if (from !== origin) continue;
        remoteTurns.delete(sessionId);
        const turn = deps.live(sessionId).turn;
        // A turn begun since (here, after a takeover, or by another process) is not the dead process's.
        if (!turn || turn.origin !== origin) continue;
        deps
          .live(sessionId)
          .emit({ type: 'turn.ended', turnId: turn.turnId, outcome: 'aborted', unsentSegments: [] }, { relayed: true });
        void announceById(deps, sessionId);
      }
    },
  };
}
