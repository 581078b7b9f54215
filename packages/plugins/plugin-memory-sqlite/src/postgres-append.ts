// One append on PostgreSQL as one statement (it was BEGIN, an insert of the counter row, its SELECT … FOR UPDATE, the
// rows' INSERT, the counters' UPDATE and COMMIT, six round trips). The counter row is upserted by how much this append
// moves it, which locks it as FOR UPDATE did (appends of several processes still never share a seq), and RETURNING
// gives the counters as they were before it; the rows take their seq, epoch and conversation index as offsets from
// those. The offsets are what advanceOnAppend gives from a session with no rows, so both engines still count alike.
import type { Message } from '@aalis/schema-message';
import { advanceOnAppend, DIVIDER, emptyState } from './memory-session-state.js';
import { newMessageId } from './message-id.js';
import { encodeMessage, storedMessage } from './message-row.js';

const COUNTERS = 8;
const PER_MESSAGE = 10;

export interface AppendStatement {
  sql: string;
  params: unknown[];
  /** The messages as stored (what every later read returns). */
  stored: Message[];
}

export function appendStatement(sessionId: string, messages: readonly Message[], now: number): AppendStatement {
  const moved = emptyState(sessionId);
  let divider = false;
  const stored: Message[] = [];
  const params: unknown[] = [];
  const tuples: string[] = [];
  const at = (index: number, type: string) => `$${COUNTERS + 2 + index}::${type}`;
  for (const message of messages) {
    const row = encodeMessage(message, newMessageId(now), now);
    const { seq, conversationIndex } = advanceOnAppend(moved, message);
    if (message.kind === DIVIDER) divider = true;
    const base = params.length;
    tuples.push(
      `(${[
        at(base, 'bigint'),
        at(base + 1, 'text'),
        at(base + 2, 'integer'),
        at(base + 3, 'bigint'),
        at(base + 4, 'text'),
        at(base + 5, 'text'),
        at(base + 6, 'text'),
        at(base + 7, 'text'),
        at(base + 8, 'bigint'),
        at(base + 9, 'text'),
      ].join(', ')})`,
    );
    params.push(
      seq,
      row.id,
      moved.epoch,
      conversationIndex,
      row.turnId,
      row.role,
      row.kind,
      row.content,
      row.timestamp,
      row.extra,
    );
    stored.push(storedMessage(message, row));
  }
  if (params.length !== messages.length * PER_MESSAGE) throw new Error('append parameters miscounted');
  // $1 the session; $2–$8 how far the counters move (a new session's counters after this append); $9 whether a
  // compression divider moved the active history's start (then it is the counters before plus the offset).
  const sql = `WITH counters AS (
      INSERT INTO memory_sessions AS s (session_id, next_seq, epoch, row_count, conversation_count, active_seq_start,
        active_conversation_start, active_row_start)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
      ON CONFLICT (session_id) DO UPDATE SET
        next_seq = s.next_seq + $2,
        epoch = s.epoch + $3,
        row_count = s.row_count + $4,
        conversation_count = s.conversation_count + $5,
        active_seq_start = CASE WHEN $9::boolean THEN s.next_seq + $6 ELSE s.active_seq_start END,
        active_conversation_start = CASE WHEN $9::boolean THEN s.conversation_count + $7
          ELSE s.active_conversation_start END,
        active_row_start = CASE WHEN $9::boolean THEN s.row_count + $8 ELSE s.active_row_start END
      RETURNING next_seq - $2 AS seq0, epoch - $3 AS epoch0, conversation_count - $5 AS conversation0
    )
    INSERT INTO memory_messages (session_id, seq, id, epoch, conversation_index, turn_id, role, kind, content,
      timestamp, extra)
    SELECT $1, c.seq0 + m.seq, m.id, c.epoch0 + m.epoch, c.conversation0 + m.conversation_index, m.turn_id, m.role,
      m.kind, m.content, m.timestamp, m.extra
    FROM counters c,
      (VALUES ${tuples.join(', ')}) AS m(seq, id, epoch, conversation_index, turn_id, role, kind, content, timestamp,
        extra)`;
  return {
    sql,
    params: [
      sessionId,
      moved.next_seq,
      moved.epoch,
      moved.row_count,
      moved.conversation_count,
      moved.active_seq_start,
      moved.active_conversation_start,
      moved.active_row_start,
      divider,
      ...params,
    ],
    stored,
  };
}
