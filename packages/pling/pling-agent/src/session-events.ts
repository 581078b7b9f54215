// What a session reports: the stored event list (chat and recent-operations views) and transient text deltas.
// Events carry action ids and outcomes, never raw tool arguments or results (they may hold personal data).
import type { CheckpointProblem } from './checkpoint-texts.js';

export type SessionEventBody =
  /** `interrupted`: the model's stream broke after this much of the reply was shown (MODEL_STREAM_ERROR follows). */
  | { type: 'message'; role: 'user' | 'assistant'; text: string; interrupted?: true }
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
  /** `retry` counts from 1 (the first retry of a model call is 1); `delayMs` is the wait before it. */
  | { type: 'retry'; retry: number; delayMs: number; code?: string }
  /** `budget`: config.budget or the host's checkBudget ended the run (like max-turns, a notice, not an error). */
  | { type: 'notice'; code: 'max-turns' | 'budget' | 'cancelled'; message: string }
  | { type: 'error'; code: string; message: string }
  /**
   * Cross-document continuity (config.continuity): a checkpoint was restored, discarded (with the reason) or
   * could not be written (too large, storage refused). `message` is worded in config.locale.
   */
  | {
      type: 'continuity';
      outcome: 'restored' | 'discarded' | 'not-saved';
      problem?: CheckpointProblem;
      message: string;
    };

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
