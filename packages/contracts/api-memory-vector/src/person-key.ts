// One person across the stores of long-term memory and profiles: the owner's accounts on every platform are one
// person (the authority service knows them as one), anybody else is one account.
import type { Identity } from '@aalis/schema-message';

export const OWNER_PERSON = 'owner';

export function personKeyOf(identity: Identity, isOwner: (identity: Identity) => boolean): string {
  return isOwner(identity) ? OWNER_PERSON : `${identity.platform}:${identity.userId}`;
}
