// The profile facts on SQLite (the data directory's database).
import type { Migration, SqliteDatabase } from '@aalis/sqlite';
import {
  contains,
  likePattern,
  MAX_FACTS_PER_PERSON,
  PROFILE_COLUMNS,
  PROFILE_NAMESPACE,
  type ProfilePerson,
  type ProfileRow,
  type ProfileStore,
  profileFactFromRow,
  profileMigrations,
} from './profile-store.js';

const MIGRATIONS: readonly Migration[] = profileMigrations('INTEGER');

export function sqliteProfileStore(database: SqliteDatabase): ProfileStore {
  database.migrate(PROFILE_NAMESPACE, MIGRATIONS);
  const facts = (person: string) =>
    (
      database
        .statement(`SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE person = ? ORDER BY at, id`)
        .all(person) as ProfileRow[]
    ).map(profileFactFromRow);
  const get = (id: string) => {
    const row = database.statement(`SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE id = ?`).get(id) as
      | ProfileRow
      | undefined;
    return row ? profileFactFromRow(row) : undefined;
  };
  const removeIds = (ids: readonly string[]) => {
    const gone = ids.flatMap((id) => {
      const fact = get(id);
      return fact ? [fact] : [];
    });
    database.write((connection) => {
      const remove = connection.prepare('DELETE FROM profile_facts WHERE id = ?');
      for (const fact of gone) remove.run(fact.id);
    });
    return gone;
  };
  return {
    async remember(fact) {
      return database.write((connection) => {
        connection
          .prepare(
            'INSERT INTO profile_facts (id, person, fact, at, source) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
          )
          .run(fact.id, fact.person, fact.fact, fact.at, fact.source ?? null);
        connection
          .prepare(
            `DELETE FROM profile_facts WHERE person = ? AND id NOT IN
             (SELECT id FROM profile_facts WHERE person = ? ORDER BY at DESC, id DESC LIMIT ?)`,
          )
          .run(fact.person, fact.person, MAX_FACTS_PER_PERSON);
        const kept = connection
          .prepare(`SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE person = ? AND fact = ?`)
          .get(fact.person, fact.fact) as ProfileRow | undefined;
        return kept ? profileFactFromRow(kept) : fact;
      });
    },
    async facts(person) {
      return facts(person);
    },
    async forget(person, matching) {
      return removeIds(
        facts(person)
          .filter((fact) => contains(fact.fact, matching))
          .map((fact) => fact.id),
      );
    },
    async forgetIds(ids) {
      return removeIds(ids);
    },
    async get(id) {
      return get(id);
    },
    async update(id, fact, at) {
      return database.write((connection) => {
        const row = connection.prepare(`SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE id = ?`).get(id) as
          | ProfileRow
          | undefined;
        if (!row) return undefined;
        const same = connection
          .prepare(`SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE person = ? AND fact = ? AND id <> ?`)
          .get(row.person, fact, id) as ProfileRow | undefined;
        if (same) {
          connection.prepare('DELETE FROM profile_facts WHERE id = ?').run(id);
          return profileFactFromRow(same);
        }
        connection.prepare("UPDATE profile_facts SET fact = ?, at = ?, source = 'page' WHERE id = ?").run(fact, at, id);
        return profileFactFromRow({ ...row, fact, at, source: 'page' });
      });
    },
    async people(limit) {
      return (
        database
          .statement(
            `SELECT person, count(*) AS facts, max(at) AS last_at FROM profile_facts GROUP BY person
             ORDER BY last_at DESC, person LIMIT ?`,
          )
          .all(limit) as { person: string; facts: number; last_at: number }[]
      ).map((row): ProfilePerson => ({ person: row.person, facts: row.facts, lastAt: Number(row.last_at) }));
    },
    async search({ text, persons, limit }) {
      if (persons?.length === 0) return [];
      const filter = persons === undefined ? '' : ` AND person IN (${persons.map(() => '?').join(', ')})`;
      return (
        database
          .statement(
            `SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE lower(fact) LIKE ? ESCAPE '\\'${filter}
             ORDER BY at DESC, id DESC LIMIT ?`,
          )
          .all(likePattern(text), ...(persons ?? []), limit) as ProfileRow[]
      ).map(profileFactFromRow);
    },
  };
}
