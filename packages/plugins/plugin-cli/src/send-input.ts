// Hands one typed line to the gateway as an IncomingMessage of platform "cli" from the local user.
import type { GatewayService, InboundReport } from '@aalis/api-gateway';
import type { IncomingMessage } from '@aalis/schema-message';

export interface LocalUser {
  userId: string;
  displayName: string;
}

let counter = 0;

/** A message id unique within this process run (the agent and the input tracker follow inputs by it). */
export function nextMessageId(): string {
  counter += 1;
  return `cli-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export function cliMessage({
  sessionId,
  user,
  content,
  messageId = nextMessageId(),
}: {
  sessionId: string;
  user: LocalUser;
  content: string;
  messageId?: string;
}): IncomingMessage {
  return {
    sessionId,
    platform: 'cli',
    sender: { userId: user.userId, displayName: user.displayName },
    actor: { platform: 'cli', userId: user.userId },
    content,
    messageId,
    timestamp: Date.now(),
  };
}

export type Send = (message: IncomingMessage) => Promise<InboundReport | undefined>;

/** Sends through the gateway when one is selected; resolves undefined when none is. */
export function sender(gateway: () => GatewayService | undefined): Send {
  return async (message) => {
    const service = gateway();
    if (!service) return undefined;
    return service.receive(message);
  };
}
