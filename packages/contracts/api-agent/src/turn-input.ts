// One input of a turn (api-agent.zh.md 「钩子」: TurnInput).
import type { IncomingMessage, Message } from '@aalis/schema-message';

export interface TurnInput {
  /** The inbound message, after preprocessors. */
  readonly message: IncomingMessage;
  /** The archived history entry, once archived; never set for idle prompts or without an archive. */
  archived?: Message;
}

export type TurnOutcome = 'replied' | 'silent' | 'aborted' | 'error';
