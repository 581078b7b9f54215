// Applies the sender-prefix rule to an input: injections (inputs with a source: scheduler, host notice, subtask…)
// are nobody's speech and carry no prefix; a real person is named by the authorised identity (actor), else by the
// sender's account on the input's platform.
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import { type SpeakerOfInput, speakerOf } from './speaker-of.js';

/** The account an input speaks as, or undefined for injections and anonymous senders. */
export function speakerIdentityOf(
  message: Pick<IncomingMessage, 'actor' | 'sender' | 'platform' | 'source'>,
): Identity | undefined {
  if (message.source !== undefined) return undefined;
  if (message.actor) return message.actor;
  const userId = message.sender?.userId;
  return userId ? { platform: message.platform, userId } : undefined;
}

export interface SpeakerOfIncomingInput extends Omit<SpeakerOfInput, 'identity' | 'displayName' | 'isOwner'> {
  message: Pick<IncomingMessage, 'actor' | 'sender' | 'platform' | 'source'>;
  /** Whether an identity is one of the owner's accounts (authority); absent → nobody is the owner. */
  isOwner?: (identity: Identity) => boolean;
}

export function speakerOfIncoming({ message, isOwner, ...rest }: SpeakerOfIncomingInput): string | undefined {
  if (message.source !== undefined) return undefined;
  const identity = speakerIdentityOf(message);
  return speakerOf({
    ...rest,
    identity,
    displayName: message.sender?.displayName,
    isOwner: identity !== undefined && isOwner?.(identity) === true,
  });
}
