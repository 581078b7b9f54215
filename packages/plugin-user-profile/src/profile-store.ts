// Where what she knows about each person lives: short facts per person key, in the storage engine's database.
// Two implementations (SQLite, PostgreSQL) run one conformance suite (profile-store.case.ts).

export interface ProfileFact {
  id: string;
  /** The person's key (`owner`, or `<platform>:<userId>`). */
  person: string;
  fact: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/** Facts kept per person at most; a new one past it replaces the oldest. */
export const MAX_FACTS_PER_PERSON = 100;
/** Longest fact, in characters. */
export const MAX_FACT_CHARS = 500;

export interface ProfileStore {
  /** Keeps a fact (the same text again is kept once); past MAX_FACTS_PER_PERSON the oldest goes. */
  remember(fact: ProfileFact): Promise<void>;
  /** A person's facts, oldest first. */
  facts(person: string): Promise<ProfileFact[]>;
  /** Forgets a person's facts containing `matching` (case-insensitive), or all of them; returns what went. */
  forget(person: string, matching?: string): Promise<ProfileFact[]>;
}

export const PROFILE_NAMESPACE = 'user-profile';

export function contains(fact: string, matching: string | undefined): boolean {
  return matching === undefined || fact.toLowerCase().includes(matching.toLowerCase());
}
