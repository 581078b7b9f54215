// What a session reports: the stored event list (chat and recent-operations views) and transient text deltas.
// Events carry action ids and outcomes, never raw tool arguments or results (they may hold personal data).

export type SessionEventBody =
  | { type: 'message'; role: 'user' | 'assistant'; text: string }
  | { type: 'tool-call'; callId: string; id: string; toolName: string; turn: number }
  | { type: 'tool-result'; callId: string; id: string; toolName: string; turn: number; ok: boolean; code?: string }
  | {
      type: 'blocked';
      callId: string;
      id: string;
      toolName: string;
      turn: number;
      code: 'HOOK_BLOCKED';
      reason: string;
    }
  | { type: 'compacted'; tokensBefore: number; tokensAfter: number; keptMessages: number }
  | { type: 'retry'; retry: number; delayMs: number; code?: string }
  | { type: 'notice'; code: 'max-turns' | 'cancelled'; message: string }
  | { type: 'error'; code: string; message: string };

export type SessionEvent = SessionEventBody & {
  /** Position in this session's event stream, from 1. */
  seq: number;
  /** Milliseconds since the epoch. */
  at: number;
  sessionId: string;
};

/** A streamed text increment: given to listeners, not stored in events(). */
export interface TextDeltaEvent {
  type: 'text-delta';
  sessionId: string;
  text: string;
}

export type RuntimeEvent = SessionEvent | TextDeltaEvent;
