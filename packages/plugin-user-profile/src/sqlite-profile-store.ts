// The profile facts on SQLite (the data directory's database).
import type { Migration, SqliteDatabase } from '@aalis/sqlite';
import {
  contains,
  MAX_FACTS_PER_PERSON,
  PROFILE_NAMESPACE,
  type ProfileFact,
  type ProfileStore,
} from './profile-store.js';

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'profile facts',
    up: `CREATE TABLE profile_facts (id TEXT PRIMARY KEY, person TEXT NOT NULL, fact TEXT NOT NULL, at INTEGER NOT NULL,
      UNIQUE (person, fact));
    CREATE INDEX profile_facts_person ON profile_facts(person, at);`,
  },
];

export function sqliteProfileStore(database: SqliteDatabase): ProfileStore {
  database.migrate(PROFILE_NAMESPACE, MIGRATIONS);
  const facts = (person: string) =>
    database
      .statement('SELECT id, person, fact, at FROM profile_facts WHERE person = ? ORDER BY at, id')
      .all(person) as ProfileFact[];
  return {
    async remember(fact) {
      database.write((connection) => {
        connection
          .prepare('INSERT INTO profile_facts (id, person, fact, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
          .run(fact.id, fact.person, fact.fact, fact.at);
        connection
          .prepare(
            `DELETE FROM profile_facts WHERE person = ? AND id NOT IN
             (SELECT id FROM profile_facts WHERE person = ? ORDER BY at DESC, id DESC LIMIT ?)`,
          )
          .run(fact.person, fact.person, MAX_FACTS_PER_PERSON);
      });
    },
    async facts(person) {
      return facts(person);
    },
    async forget(person, matching) {
      const gone = facts(person).filter((fact) => contains(fact.fact, matching));
      database.write((connection) => {
        const remove = connection.prepare('DELETE FROM profile_facts WHERE id = ?');
        for (const fact of gone) remove.run(fact.id);
      });
      return gone;
    },
  };
}
