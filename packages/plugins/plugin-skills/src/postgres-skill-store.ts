// Skills on PostgreSQL (shared by every process of a deployment): rows with their terms as a tsvector built by
// array_to_tsvector (the shared tokeniser's terms as they are), a GIN index, the scope as a plain column.
import type { Skill, SkillHit } from '@aalis/api-skills';
import type { PostgresDatabase, PostgresMigration } from '@aalis/postgres';
import { searchTerms } from '@aalis/util-text-search';
import { SKILLS_NAMESPACE, type SkillStore, searchedText, skillFromRow } from './skill-store.js';

const MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'skills and their full-text index',
    up: `CREATE TABLE skills (
      seq BIGSERIAL PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      content TEXT NOT NULL,
      scope TEXT NOT NULL,
      by_person TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      terms TSVECTOR NOT NULL,
      UNIQUE (scope, name)
    );
    CREATE INDEX skills_scope ON skills(scope, updated_at);
    CREATE INDEX skills_terms ON skills USING GIN (terms);`,
  },
];

const COLUMNS = 'id, name, content, scope, by_person, created_at, updated_at';

interface Row {
  id: string;
  name: string;
  content: string;
  scope: string;
  by_person: string | null;
  created_at: string;
  updated_at: string;
}

/** PostgreSQL text cannot hold NUL: it is stored as U+FFFD. */
function storable(value: string): string {
  return value.replaceAll('\u0000', '\uFFFD');
}

function termsOf(skill: Pick<Skill, 'name' | 'content'>): string[] {
  return [...new Set(searchTerms(searchedText(skill)))];
}

/** A tsquery for any of the terms, each a quoted lexeme. */
function anyOf(terms: readonly string[]): string {
  return terms.map((term) => `'${term.replaceAll("'", "''")}'`).join(' | ');
}

export async function postgresSkillStore(database: PostgresDatabase): Promise<SkillStore> {
  await database.migrate(SKILLS_NAMESPACE, MIGRATIONS);
  return {
    async save(skill, maxSkills) {
      const stored = { ...skill, name: storable(skill.name), content: storable(skill.content) };
      return database.transaction(async (client) => {
        // One saver at a time across processes, so the count and the insert agree.
        await client.query("SELECT pg_advisory_xact_lock(hashtext('aalis.skills'))");
        const updated = await client.query<Row>(
          `UPDATE skills SET content = $3, by_person = coalesce($4, by_person), updated_at = $5,
             terms = array_to_tsvector($6::text[])
           WHERE scope = $1 AND name = $2 RETURNING ${COLUMNS}`,
          [stored.scope, stored.name, stored.content, stored.by ?? null, stored.updatedAt, termsOf(stored)],
        );
        const row = updated.rows[0];
        if (row) return skillFromRow(row);
        const counted = await client.query<{ n: string }>('SELECT count(*) AS n FROM skills');
        if (Number(counted.rows[0]?.n ?? 0) >= maxSkills) return 'full' as const;
        await client.query(
          `INSERT INTO skills (${COLUMNS}, terms) VALUES ($1, $2, $3, $4, $5, $6, $7, array_to_tsvector($8::text[]))`,
          [
            stored.id,
            stored.name,
            stored.content,
            stored.scope,
            stored.by ?? null,
            stored.createdAt,
            stored.updatedAt,
            termsOf(stored),
          ],
        );
        return stored;
      });
    },
    async update(skill) {
      const stored = { ...skill, name: storable(skill.name), content: storable(skill.content) };
      return database.transaction(async (client) => {
        const current = (await client.query<Row>(`SELECT ${COLUMNS} FROM skills WHERE id = $1 FOR UPDATE`, [skill.id]))
          .rows[0];
        if (!current) return undefined;
        const taken = await client.query('SELECT 1 FROM skills WHERE scope = $1 AND name = $2 AND id <> $3', [
          current.scope,
          stored.name,
          stored.id,
        ]);
        if ((taken.rowCount ?? 0) > 0) return 'conflict' as const;
        const rows = await client.query<Row>(
          `UPDATE skills SET name = $2, content = $3, updated_at = $4, terms = array_to_tsvector($5::text[])
           WHERE id = $1 RETURNING ${COLUMNS}`,
          [stored.id, stored.name, stored.content, stored.updatedAt, termsOf(stored)],
        );
        const row = rows.rows[0];
        return row ? skillFromRow(row) : undefined;
      });
    },
    async search({ terms, scopes, limit }) {
      if (terms.length === 0 || limit <= 0 || scopes?.length === 0) return [];
      const rows = await database.query<Row & { score: number }>(
        `SELECT ${COLUMNS}, ts_rank(terms, q) AS score FROM skills, CAST($1 AS tsquery) AS q
         WHERE terms @@ q AND ($2::text[] IS NULL OR scope = ANY($2::text[]))
         ORDER BY score DESC, updated_at DESC LIMIT $3`,
        [anyOf(terms), scopes === undefined ? null : [...scopes], limit],
      );
      return rows.map((row): SkillHit => ({ ...skillFromRow(row), score: Number(row.score) }));
    },
    async list({ scopes, limit }) {
      const rows = await database.query<Row>(
        `SELECT ${COLUMNS} FROM skills WHERE ($1::text[] IS NULL OR scope = ANY($1::text[]))
         ORDER BY updated_at DESC, seq DESC LIMIT $2`,
        [scopes === undefined ? null : [...scopes], limit],
      );
      return rows.map(skillFromRow);
    },
    async get(id) {
      const row = (await database.query<Row>(`SELECT ${COLUMNS} FROM skills WHERE id = $1`, [id]))[0];
      return row ? skillFromRow(row) : undefined;
    },
    async delete(id) {
      return (await database.query('DELETE FROM skills WHERE id = $1 RETURNING 1', [id])).length > 0;
    },
    async count() {
      return Number((await database.query<{ n: string }>('SELECT count(*) AS n FROM skills'))[0]?.n ?? 0);
    },
  };
}
