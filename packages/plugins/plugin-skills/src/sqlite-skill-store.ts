// Skills on SQLite: rows in a plain table, their terms (the shared tokeniser's, so Chinese and English are found) in
// a contentless FTS5 table whose second column holds the scope as a token, so a search ranks (BM25) only what the
// scopes may see.
import { createHash } from 'node:crypto';
import type { SkillHit, SkillScope } from '@aalis/api-skills';
import type { Migration, SqliteDatabase } from '@aalis/sqlite';
import { fts5AnyOf, indexText } from '@aalis/util-text-search';
import { SKILLS_NAMESPACE, type SkillStore, searchedText, skillFromRow } from './skill-store.js';

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'skills and their full-text index',
    up: `CREATE TABLE skills (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      content TEXT NOT NULL,
      scope TEXT NOT NULL,
      by_person TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (scope, name)
    );
    CREATE INDEX skills_scope ON skills(scope, updated_at);
    CREATE VIRTUAL TABLE skills_fts USING fts5(terms, scope, content='', contentless_delete=1,
      tokenize='unicode61 remove_diacritics 0');`,
  },
];

const COLUMNS = 'seq, id, name, content, scope, by_person, created_at, updated_at';

interface Row {
  seq: number;
  id: string;
  name: string;
  content: string;
  scope: string;
  by_person: string | null;
  created_at: number;
  updated_at: number;
}

/** Tokens of recent scopes: every search hashes each scope the turn may use (a fifth of a search's cost). */
const scopeTokens = new Map<string, string>();
const MAX_CACHED_SCOPE_TOKENS = 10_000;

/** A scope as one FTS token: letters and digits only, never a word anyone writes. */
function scopeToken(scope: SkillScope): string {
  let token = scopeTokens.get(scope);
  if (token === undefined) {
    token = `zzs${createHash('sha1').update(scope).digest('hex').slice(0, 16)}`;
    if (scopeTokens.size >= MAX_CACHED_SCOPE_TOKENS) scopeTokens.clear();
    scopeTokens.set(scope, token);
  }
  return token;
}

function scopeFilter(scopes: readonly SkillScope[] | undefined): { sql: string; params: string[] } {
  if (scopes === undefined) return { sql: '', params: [] };
  if (scopes.length === 0) return { sql: ' WHERE 0', params: [] };
  return { sql: ` WHERE scope IN (${scopes.map(() => '?').join(', ')})`, params: [...scopes] };
}

export function sqliteSkillStore(database: SqliteDatabase): SkillStore {
  database.migrate(SKILLS_NAMESPACE, MIGRATIONS);
  const byId = (id: string) =>
    database.statement(`SELECT ${COLUMNS} FROM skills WHERE id = ?`).get(id) as Row | undefined;
  return {
    async save(skill, maxSkills) {
      const terms = indexText(searchedText(skill));
      return database.write((connection) => {
        const existing = connection
          .prepare(`SELECT ${COLUMNS} FROM skills WHERE scope = ? AND name = ?`)
          .get(skill.scope, skill.name) as Row | undefined;
        if (existing) {
          connection
            .prepare('UPDATE skills SET content = ?, by_person = ?, updated_at = ? WHERE seq = ?')
            .run(skill.content, skill.by ?? existing.by_person, skill.updatedAt, existing.seq);
          connection.prepare('DELETE FROM skills_fts WHERE rowid = ?').run(existing.seq);
          connection
            .prepare('INSERT INTO skills_fts (rowid, terms, scope) VALUES (?, ?, ?)')
            .run(existing.seq, terms, scopeToken(skill.scope));
          return skillFromRow({
            ...existing,
            content: skill.content,
            by_person: skill.by ?? existing.by_person,
            updated_at: skill.updatedAt,
          });
        }
        const { n } = connection.prepare('SELECT count(*) AS n FROM skills').get() as { n: number };
        if (n >= maxSkills) return 'full' as const;
        const result = connection
          .prepare(
            'INSERT INTO skills (id, name, content, scope, by_person, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          )
          .run(skill.id, skill.name, skill.content, skill.scope, skill.by ?? null, skill.createdAt, skill.updatedAt);
        connection
          .prepare('INSERT INTO skills_fts (rowid, terms, scope) VALUES (?, ?, ?)')
          .run(result.lastInsertRowid, terms, scopeToken(skill.scope));
        return skill;
      });
    },
    async update(skill) {
      const terms = indexText(searchedText(skill));
      return database.write((connection) => {
        const row = connection.prepare(`SELECT ${COLUMNS} FROM skills WHERE id = ?`).get(skill.id) as Row | undefined;
        if (!row) return undefined;
        const taken = connection
          .prepare('SELECT 1 FROM skills WHERE scope = ? AND name = ? AND seq <> ?')
          .get(row.scope, skill.name, row.seq);
        if (taken) return 'conflict' as const;
        connection
          .prepare('UPDATE skills SET name = ?, content = ?, updated_at = ? WHERE seq = ?')
          .run(skill.name, skill.content, skill.updatedAt, row.seq);
        connection.prepare('DELETE FROM skills_fts WHERE rowid = ?').run(row.seq);
        connection
          .prepare('INSERT INTO skills_fts (rowid, terms, scope) VALUES (?, ?, ?)')
          .run(row.seq, terms, scopeToken(row.scope));
        return skillFromRow({ ...row, name: skill.name, content: skill.content, updated_at: skill.updatedAt });
      });
    },
    async search({ terms, scopes, limit }) {
      if (terms.length === 0 || limit <= 0 || scopes?.length === 0) return [];
      // Most hosts hold no skill at all, and each turn searches: a full-text query costs many times this look.
      if (database.statement('SELECT 1 FROM skills LIMIT 1').get() === undefined) return [];
      const scopePart = scopes === undefined ? '' : ` AND scope : (${fts5AnyOf(scopes.map(scopeToken))})`;
      const rows = database
        .statement(
          `SELECT ${COLUMNS}, hits.rank AS rank FROM (
             SELECT rowid, bm25(skills_fts, 1.0, 0.0) AS rank FROM skills_fts WHERE skills_fts MATCH ?
             ORDER BY rank LIMIT ?
           ) AS hits JOIN skills ON skills.seq = hits.rowid ORDER BY hits.rank, skills.updated_at DESC`,
        )
        .all(`terms : (${fts5AnyOf(terms)})${scopePart}`, limit) as (Row & { rank: number })[];
      return rows.map((row): SkillHit => ({ ...skillFromRow(row), score: -row.rank }));
    },
    async list({ scopes, limit }) {
      const filter = scopeFilter(scopes);
      const rows = database
        .statement(`SELECT ${COLUMNS} FROM skills${filter.sql} ORDER BY updated_at DESC, seq DESC LIMIT ?`)
        .all(...filter.params, limit) as Row[];
      return rows.map(skillFromRow);
    },
    async get(id) {
      const row = byId(id);
      return row ? skillFromRow(row) : undefined;
    },
    async delete(id) {
      return database.write((connection) => {
        const row = connection.prepare('SELECT seq FROM skills WHERE id = ?').get(id) as { seq: number } | undefined;
        if (!row) return false;
        connection.prepare('DELETE FROM skills_fts WHERE rowid = ?').run(row.seq);
        connection.prepare('DELETE FROM skills WHERE seq = ?').run(row.seq);
        return true;
      });
    },
    async count() {
      return (database.statement('SELECT count(*) AS n FROM skills').get() as { n: number }).n;
    },
  };
}
