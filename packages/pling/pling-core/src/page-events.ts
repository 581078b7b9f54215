// What the page layer reports: confirmations and handoffs. Every payload is redacted.
import type { ConfirmationRequest } from './confirmation-queue.js';
import type { HandoffRequest } from './handoff-queue.js';

/** Who ended a pending request: a person, clear()/clearAll(), or the run's cancellation. */
export type SettledBy = 'user' | 'cleared' | 'cancelled';

export type PageEventBody =
  | { type: 'confirmation:requested'; request: ConfirmationRequest }
  | { type: 'confirmation:approved'; id: string; actionId: string }
  | { type: 'confirmation:rejected'; id: string; actionId: string; by: SettledBy; reason?: string }
  | { type: 'handoff:requested'; request: HandoffRequest }
  | { type: 'handoff:resolved'; id: string; by: Exclude<SettledBy, 'cancelled'>; note?: string };

export type PageEvent = PageEventBody & {
  /** Milliseconds since the epoch (through the page's clock). */
  at: number;
};

export type PageEventListener = (event: PageEvent) => void;
