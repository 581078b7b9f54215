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

/**
 * An input this process accepted settled without a reply because its turn ran on another process (the session's
 * owner on a shared engine) and was recorded as stopped there: a stop, that owner's shutdown, or its death (the
 * process that took over recorded the turn as stopped). A front end can say so, as it does for a stopped turn of
 * its own; nothing else will come for the input.
 */
export interface AgentStoppedElsewhereEvent {
  message: IncomingMessage;
}

declare module '@aalis/core' {
  interface EventMap {
    'agent:accepted': AgentAcceptedEvent;
    'agent:stopped-elsewhere': AgentStoppedElsewhereEvent;
    'agent:queue': AgentQueueEvent;
    'token:usage': TokenUsageEvent;
    'token:request': TokenRequestEvent;
  }
}
