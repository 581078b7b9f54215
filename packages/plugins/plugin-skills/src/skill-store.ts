// Where skills live: one row per skill with its full-text terms, in the storage engine's database. Two
// implementations (SQLite FTS5, PostgreSQL tsvector) run one conformance suite (skill-store.case.ts).
import type { Skill, SkillHit, SkillScope } from '@aalis/api-skills';

export const SKILLS_NAMESPACE = 'skills';

/** A skill's row as either database returns it (PostgreSQL gives BIGINT as text). */
export interface SkillRowFields {
  id: string;
  name: string;
  content: string;
  scope: string;
  by_person: string | null;
  created_at: number | string;
  updated_at: number | string;
}

export function skillFromRow(row: SkillRowFields): Skill {
  return {
    id: row.id,
    name: row.name,
    content: row.content,
    scope: row.scope,
    ...(row.by_person === null ? {} : { by: row.by_person }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export interface SkillStore {
  /**
   * Saves a skill: the same name in the same scope replaces the procedure (the stored id and createdAt stay).
   * A new skill past `maxSkills` in all is not saved: `full` (checked in the same transaction).
   */
  save(skill: Skill, maxSkills: number): Promise<Skill | 'full'>;
  /** Changes name and procedure of a stored skill; `conflict` when the new name is taken in its scope. */
  update(skill: Skill): Promise<Skill | 'conflict' | undefined>;
  search(request: { terms: readonly string[]; scopes?: readonly SkillScope[]; limit: number }): Promise<SkillHit[]>;
  list(request: { scopes?: readonly SkillScope[]; limit: number }): Promise<Skill[]>;
  get(id: string): Promise<Skill | undefined>;
  delete(id: string): Promise<boolean>;
  count(): Promise<number>;
}

/** The text a skill is found by: its name and its procedure. */
export function searchedText(skill: Pick<Skill, 'name' | 'content'>): string {
  return `${skill.name}\n${skill.content}`;
}
