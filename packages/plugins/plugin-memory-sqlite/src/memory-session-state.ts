// The per-session counters both engines keep in memory_sessions, and how one appended message moves them: the seq
// it gets, its conversation index (control messages have none), and a compression divider starting a new epoch
// whose active history begins after it. One definition, so the SQLite and PostgreSQL stores count alike.
import { isControlMessage, type Message } from '@aalis/schema-message';

export const DIVIDER = 'compression-divider';
export const COLUMNS = 'id, role, kind, content, timestamp, extra';

export interface SessionState {
  session_id: string;
  next_seq: number;
  epoch: number;
  row_count: number;
  conversation_count: number;
  active_seq_start: number;
  active_conversation_start: number;
  active_row_start: number;
}

/** Advances `state` for one appended message; returns the message's seq and conversation index. */
export function advanceOnAppend(
  state: SessionState,
  message: Pick<Message, 'kind'>,
): { seq: number; conversationIndex: number | null } {
  const seq = state.next_seq++;
  let conversationIndex: number | null = null;
  if (message.kind === DIVIDER) {
    state.epoch++;
    state.active_seq_start = seq + 1;
    state.active_conversation_start = state.conversation_count;
    state.active_row_start = state.row_count + 1;
  } else if (!isControlMessage(message)) {
    conversationIndex = state.conversation_count++;
  }
  state.row_count++;
  return { seq, conversationIndex };
}

/** A stored row as renumbering reads it. */
export interface TailRow {
  seq: number;
  kind: string | null;
  epoch: number;
  conversation_index: number | null;
  superseded: number;
}

/** A row whose epoch or conversation index is no longer what it was. */
export interface Renumbered {
  seq: number;
  epoch: number;
  conversationIndex: number | null;
}

/**
 * After rows were deleted or superseded: epoch and conversation index of the rows from the first changed one on
 * (`tail`, in seq order), counted on from the last row before them (`epoch`, `conversation`), and the session's
 * counters (`rowCount` rows remain). A divider in the tail moves the active history's start into `state`; when none
 * is in it and the start was inside it, the caller looks for the divider before (`dividerSeen` false). Returns the
 * rows to update, so each engine writes them its own way.
 */
export function renumberTail({
  state,
  tail,
  epoch,
  conversation,
  rowCount,
}: {
  state: SessionState;
  tail: readonly TailRow[];
  epoch: number;
  conversation: number;
  rowCount: number;
}): { changed: Renumbered[]; dividerSeen: boolean } {
  const tailStart = rowCount - tail.length;
  const changed: Renumbered[] = [];
  let dividerSeen = false;
  for (const [offset, row] of tail.entries()) {
    let index: number | null = null;
    if (row.kind === DIVIDER) {
      epoch++;
      dividerSeen = true;
      state.active_seq_start = row.seq + 1;
      state.active_conversation_start = conversation;
      state.active_row_start = tailStart + offset + 1;
    } else if (row.superseded === 0 && !isControlMessage({ kind: row.kind ?? undefined })) {
      index = conversation++;
    }
    if (index !== row.conversation_index || epoch !== row.epoch) {
      changed.push({ seq: row.seq, epoch, conversationIndex: index });
    }
  }
  state.epoch = epoch;
  state.row_count = rowCount;
  state.conversation_count = conversation;
  return { changed, dividerSeen };
}

/** No divider is left before the active history: it is the whole session again. */
export function startActiveAtBeginning(state: SessionState): void {
  state.active_seq_start = 0;
  state.active_conversation_start = 0;
  state.active_row_start = 0;
}

/** A session with no rows. */
export function emptyState(sessionId: string): SessionState {
  return {
    session_id: sessionId,
    next_seq: 0,
    epoch: 0,
    row_count: 0,
    conversation_count: 0,
    active_seq_start: 0,
    active_conversation_start: 0,
    active_row_start: 0,
  };
}
