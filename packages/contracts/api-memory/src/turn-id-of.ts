// The turn id a stored message belongs to, read from the one registered metadata key.
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';

export function turnIdOf(message: Pick<Message, 'metadata'>): string | undefined {
  const value = message.metadata?.[WellKnownMetadataKeys.TurnId];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
