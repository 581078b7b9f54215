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
