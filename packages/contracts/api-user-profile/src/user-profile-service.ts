// The profiles service: what the Memory page (and any plugin) reads and edits of what she knows about people.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { ProfileFact, ProfilePerson } from './profile-fact.js';

export interface UserProfileService {
  /** People with facts, the most recently updated first. */
  people(request?: { limit?: number }): Promise<ProfilePerson[]>;
  /** A person's facts, oldest first. */
  facts(person: string): Promise<ProfileFact[]>;
  get(id: string): Promise<ProfileFact | undefined>;
  /** Facts containing `text` (case-insensitive) of these people (everyone when absent), newest first. */
  search(request: { text: string; persons?: readonly string[]; limit?: number }): Promise<ProfileFact[]>;
  /** Keeps a fact (the same text again is kept once). AALIS_PROFILE_FACT_EMPTY / AALIS_PROFILE_FACT_TOO_LONG. */
  remember(request: { person: string; fact: string; source?: ProfileFact['source'] }): Promise<ProfileFact>;
  /** Rewrites a fact. AALIS_PROFILE_UNKNOWN when it is gone; the remember refusals otherwise. */
  update(id: string, fact: string): Promise<ProfileFact>;
  /**
   * Forgets facts by id and, through long-term memory when it runs, what their person said about each (removed
   * from every index; the archive keeps its record). Returns what went.
   */
  forget(ids: readonly string[]): Promise<{ facts: ProfileFact[]; messages: number }>;
}

export const userProfile: ServiceDescriptor<UserProfileService> = defineService<UserProfileService>('userProfile');
