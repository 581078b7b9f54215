// Events the agent emits or answers, merged into @aalis/core's EventMap.
import type { IncomingMessage } from '@aalis/schema-message';
import type { TokenRequestEvent, TokenUsageEvent } from './token-usage.js';

/** Where a waiting input goes: into the running turn at its next insertion point, or into a later turn. */
export type QueueDisposition = 'join' | 'queue';

export interface AgentQueueEvent {
  sessionId: string;
  /** Queued and waiting-to-join inputs not yet in a turn, in arrival order. */
  waiting: IncomingMessage[];
  /** For each entry of `waiting` (same order): whether it waits to join the running turn or is queued. */
  dispositions: QueueDisposition[];
}

/**
 * The agent took an input on: it passed agent:input:before and the deletion check, and from now on it is answered
 * or recorded as stopped. `durable`: it is stored in the database (a shared engine's hand-over queue), so it
 * survives the death of this process; a front door that answers "sent" only for durable inputs waits for this.
 */
export interface AgentAcceptedEvent {
  message: IncomingMessage;
  durable: boolean;
}

declare module '@aalis/core' {
  interface EventMap {
    'agent:accepted': AgentAcceptedEvent;
    'agent:queue': AgentQueueEvent;
    'token:usage': TokenUsageEvent;
    'token:request': TokenRequestEvent;
  }
}
