// The userProfile service over a store: facts checked and bounded (coded refusals); forgetting a fact also removes
// what its person said about it from long-term memory's indexes.
import { MAX_FACT_CHARS, type ProfileFact, profileErrors, type UserProfileService } from '@aalis/api-user-profile';
import type { ProfileStore } from './profile-store.js';

/** Most people or facts one list or search answers. */
const MAX_LISTED = 500;

/** A fact as kept: one line, spaces collapsed, no NULs. */
export function cleanFact(fact: string): string {
  return fact.replaceAll('\u0000', '').replace(/\s+/g, ' ').trim();
}

export function checkedFact(fact: string): string {
  const clean = cleanFact(fact);
  if (clean.length === 0) throw profileErrors.AALIS_PROFILE_FACT_EMPTY();
  if (clean.length > MAX_FACT_CHARS) {
    throw profileErrors.AALIS_PROFILE_FACT_TOO_LONG({ length: clean.length, max: MAX_FACT_CHARS });
  }
  return clean;
}

export function profileServiceOf({
  store,
  newId,
  forgetSaid,
  now = Date.now,
}: {
  store: ProfileStore;
  newId(): string;
  /** Removes what the fact's person said about it from long-term memory; how many messages went (0 without it). */
  forgetSaid(fact: ProfileFact): Promise<number>;
  now?: () => number;
}): UserProfileService {
  // Facts are listed in the order they were kept: two kept in one millisecond still get distinct times.
  let last = 0;
  const stamp = () => {
    last = Math.max(now(), last + 1);
    return last;
  };
  const limit = (value: number | undefined, fallback: number) =>
    Math.min(Math.max(1, Math.floor(value ?? fallback)), MAX_LISTED);
  return {
    people: (request = {}) => store.people(limit(request.limit, 200)),
    facts: (person) => store.facts(person),
    get: (id) => store.get(id),
    async search({ text, persons, limit: wanted }) {
      const needle = cleanFact(text);
      if (needle === '') return [];
      return store.search({ text: needle, ...(persons ? { persons } : {}), limit: limit(wanted, 50) });
    },
    async remember({ person, fact, source }) {
      return store.remember({
        id: newId(),
        person,
        fact: checkedFact(fact),
        at: stamp(),
        ...(source !== undefined ? { source } : {}),
      });
    },
    async update(id, fact) {
      const updated = await store.update(id, checkedFact(fact), stamp());
      if (!updated) throw profileErrors.AALIS_PROFILE_UNKNOWN({ id: id.slice(0, 64) });
      return updated;
    },
    async forget(ids) {
      const facts = await store.forgetIds(ids);
      let messages = 0;
      for (const fact of facts) messages += await forgetSaid(fact);
      return { facts, messages };
    },
  };
}
