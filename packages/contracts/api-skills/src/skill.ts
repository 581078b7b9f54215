// What a skill is: a procedure she saved for reuse, with the scope it may be used in.

/**
 * Where a skill may be used: `global` (everywhere; only the owner shares a skill so), a multi-party room
 * (`room:<platform>:<venue>`) or one person's private conversations (`private:<person>`, the person key of
 * `@aalis/api-memory-vector`'s `personKeyOf`).
 */
export type SkillScope = string;

export const GLOBAL_SCOPE: SkillScope = 'global';

export interface Skill {
  id: string;
  /** A short title, unique within its scope (saving the same name again replaces the procedure). */
  name: string;
  /** The procedure: when to use it and its steps. */
  content: string;
  scope: SkillScope;
  /** The person key of whoever had her save it; absent when saved from a page or by the host. */
  by?: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
}

/** A skill found by a search, with what matched. */
export interface SkillHit extends Skill {
  /** Relevance, higher is better (comparable within one answer). */
  score: number;
}

/** Bounds a deployment may set (plugins.skills); the defaults hold without a setting. */
export interface SkillLimits {
  /** Skills kept at most in all. */
  maxSkills: number;
  /** Longest name, in characters. */
  maxNameChars: number;
  /** Longest procedure, in characters. */
  maxContentChars: number;
}
