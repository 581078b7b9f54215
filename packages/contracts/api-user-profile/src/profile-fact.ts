// What she knows about a person: short facts, each kept once per person.

export interface ProfileFact {
  id: string;
  /** The person's key (`owner`, or `<platform>:<userId>`; `@aalis/api-memory-vector`'s personKeyOf). */
  person: string;
  fact: string;
  /** Milliseconds since the epoch (when it was remembered or last edited). */
  at: number;
  /** How it came: by the memory_remember tool, the extraction pass after a turn, or an edit on a page. */
  source?: 'tool' | 'extraction' | 'page';
}

/** A person with facts, as a list of people shows them. */
export interface ProfilePerson {
  person: string;
  facts: number;
  /** The newest fact's time. */
  lastAt: number;
}

/** Facts kept per person at most; a new one past it replaces the oldest. */
export const MAX_FACTS_PER_PERSON = 100;
/** Longest fact, in characters. */
export const MAX_FACT_CHARS = 500;
