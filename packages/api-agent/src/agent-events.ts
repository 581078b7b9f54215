// Events the agent emits or answers, merged into @aalis/core's EventMap.
import type { IncomingMessage } from '@aalis/schema-message';
import type { TokenRequestEvent, TokenUsageEvent } from './token-usage.js';

export interface AgentQueueEvent {
  sessionId: string;
  /** Queued and waiting-to-join inputs not yet in a turn, in arrival order. */
  waiting: IncomingMessage[];
}

declare module '@aalis/core' {
  interface EventMap {
    'agent:queue': AgentQueueEvent;
    'token:usage': TokenUsageEvent;
    'token:request': TokenRequestEvent;
  }
}
