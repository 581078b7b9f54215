// The profile facts on PostgreSQL (shared by every process of a deployment).
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import {
  contains,
  MAX_FACTS_PER_PERSON,
  PROFILE_NAMESPACE,
  type ProfileFact,
  type ProfileStore,
} from './profile-store.js';

const MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'profile facts',
    up: `CREATE TABLE profile_facts (id TEXT PRIMARY KEY, person TEXT NOT NULL, fact TEXT NOT NULL, at BIGINT NOT NULL,
      UNIQUE (person, fact));
    CREATE INDEX profile_facts_person ON profile_facts(person, at);`,
  },
];

export async function postgresProfileStore(database: PostgresDatabase): Promise<ProfileStore> {
  await database.migrate(PROFILE_NAMESPACE, MIGRATIONS);
  const facts = async (person: string) =>
    (
      await database.query<ProfileFact & { at: string }>(
        'SELECT id, person, fact, at FROM profile_facts WHERE person = $1 ORDER BY at, id',
        [person],
      )
    ).map((row): ProfileFact => ({ id: row.id, person: row.person, fact: row.fact, at: Number(row.at) }));
  return {
    async remember(fact) {
      await database.transaction(async (client) => {
        await client.query(
          'INSERT INTO profile_facts (id, person, fact, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
          [fact.id, fact.person, fact.fact.replaceAll('\u0000', '\uFFFD'), fact.at],
        );
        await client.query(
          `DELETE FROM profile_facts WHERE person = $1 AND id NOT IN
           (SELECT id FROM profile_facts WHERE person = $1 ORDER BY at DESC, id DESC LIMIT $2)`,
          [fact.person, MAX_FACTS_PER_PERSON],
        );
      });
    },
    facts,
    async forget(person, matching) {
      const gone = (await facts(person)).filter((fact) => contains(fact.fact, matching));
      if (gone.length > 0) {
        await database.query('DELETE FROM profile_facts WHERE id = ANY($1::text[])', [gone.map((fact) => fact.id)]);
      }
      return gone;
    },
  };
}
