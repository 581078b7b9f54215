// The skills service: saving, finding by relevance, listing per scope, editing and deleting skills.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { Skill, SkillHit, SkillLimits, SkillScope } from './skill.js';

export interface SkillSaveRequest {
  name: string;
  content: string;
  scope: SkillScope;
  by?: string;
}

export interface SkillsService {
  readonly limits: SkillLimits;
  /**
   * Saves a skill; the same name in the same scope replaces the procedure (same id). Refuses with
   * AALIS_SKILLS_NAME_INVALID, AALIS_SKILLS_TOO_LONG or AALIS_SKILLS_FULL.
   */
  save(request: SkillSaveRequest): Promise<Skill>;
  /** The skills of these scopes (all when absent) matching the words of `text` by full text, best first. */
  search(request: { text: string; scopes?: readonly SkillScope[]; limit?: number }): Promise<SkillHit[]>;
  /** The skills of these scopes (all when absent), most recently updated first. */
  list(request?: { scopes?: readonly SkillScope[]; limit?: number }): Promise<Skill[]>;
  get(id: string): Promise<Skill | undefined>;
  /** Changes a skill's name or procedure; AALIS_SKILLS_UNKNOWN when it is gone, the save refusals otherwise. */
  update(id: string, change: { name?: string; content?: string }): Promise<Skill>;
  /** Deletes a skill; false when there was none. */
  delete(id: string): Promise<boolean>;
}

export const skills: ServiceDescriptor<SkillsService> = defineService<SkillsService>('skills');
