// The profile facts on PostgreSQL (shared by every process of a deployment).
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
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

const MIGRATIONS: readonly PostgresMigration[] = profileMigrations('BIGINT');

/** PostgreSQL text cannot hold NUL: it is stored as U+FFFD. */
function storable(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

export async function postgresProfileStore(database: PostgresDatabase): Promise<ProfileStore> {
  await database.migrate(PROFILE_NAMESPACE, MIGRATIONS);
  const facts = async (person: string) =>
    (
      await database.query<ProfileRow>(
        `SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE person = $1 ORDER BY at, id`,
        [person],
      )
    ).map(profileFactFromRow);
  const removeIds = async (ids: readonly string[]) =>
    ids.length === 0
      ? []
      : (
          await database.query<ProfileRow>(
            `DELETE FROM profile_facts WHERE id = ANY($1::text[]) RETURNING ${PROFILE_COLUMNS}`,
            [[...ids]],
          )
        ).map(profileFactFromRow);
  return {
    async remember(fact) {
      const text = storable(fact.fact);
      return database.transaction(async (client) => {
        await client.query(
          'INSERT INTO profile_facts (id, person, fact, at, source) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
          [fact.id, fact.person, text, fact.at, fact.source ?? null],
        );
        await client.query(
          `DELETE FROM profile_facts WHERE person = $1 AND id NOT IN
           (SELECT id FROM profile_facts WHERE person = $1 ORDER BY at DESC, id DESC LIMIT $2)`,
          [fact.person, MAX_FACTS_PER_PERSON],
        );
        const kept = (
          await client.query<ProfileRow>(
            `SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE person = $1 AND fact = $2`,
            [fact.person, text],
          )
        ).rows[0];
        return kept ? profileFactFromRow(kept) : { ...fact, fact: text };
      });
    },
    facts,
    async forget(person, matching) {
      return removeIds((await facts(person)).filter((fact) => contains(fact.fact, matching)).map((fact) => fact.id));
    },
    forgetIds: removeIds,
    async get(id) {
      const row = (
        await database.query<ProfileRow>(`SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE id = $1`, [id])
      )[0];
      return row ? profileFactFromRow(row) : undefined;
    },
    async update(id, fact, at) {
      const text = storable(fact);
      return database.transaction(async (client) => {
        const row = (
          await client.query<ProfileRow>(`SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE id = $1 FOR UPDATE`, [id])
        ).rows[0];
        if (!row) return undefined;
        const same = (
          await client.query<ProfileRow>(
            `SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE person = $1 AND fact = $2 AND id <> $3`,
            [row.person, text, id],
          )
        ).rows[0];
        if (same) {
          await client.query('DELETE FROM profile_facts WHERE id = $1', [id]);
          return profileFactFromRow(same);
        }
        await client.query("UPDATE profile_facts SET fact = $2, at = $3, source = 'page' WHERE id = $1", [
          id,
          text,
          at,
        ]);
        return profileFactFromRow({ ...row, fact: text, at: String(at), source: 'page' });
      });
    },
    async people(limit) {
      return (
        await database.query<{ person: string; facts: string; last_at: string }>(
          `SELECT person, count(*) AS facts, max(at) AS last_at FROM profile_facts GROUP BY person
           ORDER BY last_at DESC, person LIMIT $1`,
          [limit],
        )
      ).map((row): ProfilePerson => ({ person: row.person, facts: Number(row.facts), lastAt: Number(row.last_at) }));
    },
    async search({ text, persons, limit }) {
      if (persons?.length === 0) return [];
      return (
        await database.query<ProfileRow>(
          `SELECT ${PROFILE_COLUMNS} FROM profile_facts WHERE lower(fact) LIKE $1 ESCAPE '\\'
             AND ($2::text[] IS NULL OR person = ANY($2::text[]))
           ORDER BY at DESC, id DESC LIMIT $3`,
          [likePattern(storable(text)), persons === undefined ? null : [...persons], limit],
        )
      ).map(profileFactFromRow);
    },
  };
}
