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

declare module '@aalis/core' {
  interface EventMap {
    'agent:queue': AgentQueueEvent;
    'token:usage': TokenUsageEvent;
    'token:request': TokenRequestEvent;
  }
}
