// Where what she knows about each person lives: short facts per person key, in the storage engine's database.
// Two implementations (SQLite, PostgreSQL) run one conformance suite (profile-store.case.ts).
import type { ProfileFact, ProfilePerson } from '@aalis/api-user-profile';

export { MAX_FACT_CHARS, MAX_FACTS_PER_PERSON, type ProfileFact, type ProfilePerson } from '@aalis/api-user-profile';

export interface ProfileStore {
  /** Keeps a fact (the same text again is kept once); past MAX_FACTS_PER_PERSON the oldest goes. Returns the kept one. */
  remember(fact: ProfileFact): Promise<ProfileFact>;
  /** A person's facts, oldest first. */
  facts(person: string): Promise<ProfileFact[]>;
  /** Forgets a person's facts containing `matching` (case-insensitive), or all of them; returns what went. */
  forget(person: string, matching?: string): Promise<ProfileFact[]>;
  /** Forgets facts by id; returns what went. */
  forgetIds(ids: readonly string[]): Promise<ProfileFact[]>;
  get(id: string): Promise<ProfileFact | undefined>;
  /** Rewrites a fact; when its person already has the new text, the two become that one. Undefined when gone. */
  update(id: string, fact: string, at: number): Promise<ProfileFact | undefined>;
  /** People with facts, the most recently updated first. */
  people(limit: number): Promise<ProfilePerson[]>;
  /** Facts containing `text` (case-insensitive) of these people (everyone when absent), newest first. */
  search(request: { text: string; persons?: readonly string[]; limit: number }): Promise<ProfileFact[]>;
}

export const PROFILE_NAMESPACE = 'user-profile';

/** The columns both stores read, in the order of ProfileRow. */
export const PROFILE_COLUMNS = 'id, person, fact, at, source';

/** A fact's row as either database returns it (PostgreSQL gives BIGINT as text). */
export interface ProfileRow {
  id: string;
  person: string;
  fact: string;
  at: number | string;
  source: string | null;
}

export function profileFactFromRow(row: ProfileRow): ProfileFact {
  return {
    id: row.id,
    person: row.person,
    fact: row.fact,
    at: Number(row.at),
    ...(row.source === 'tool' || row.source === 'extraction' || row.source === 'page' ? { source: row.source } : {}),
  };
}

export function contains(fact: string, matching: string | undefined): boolean {
  return matching === undefined || fact.toLowerCase().includes(matching.toLowerCase());
}

/** A LIKE pattern matching `text` anywhere, with its own wildcards escaped (ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The profile facts table in a dialect (`time`: the integer type of its times), one schema for both engines. */
export function profileMigrations(time: 'INTEGER' | 'BIGINT') {
  return [
    {
      version: 1,
      name: 'profile facts',
      up: `CREATE TABLE profile_facts (id TEXT PRIMARY KEY, person TEXT NOT NULL, fact TEXT NOT NULL, at ${time} NOT NULL,
      UNIQUE (person, fact));
    CREATE INDEX profile_facts_person ON profile_facts(person, at);`,
    },
    { version: 2, name: 'how a fact came', up: 'ALTER TABLE profile_facts ADD COLUMN source TEXT;' },
  ];
}
