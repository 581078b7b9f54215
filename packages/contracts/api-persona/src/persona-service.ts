// The persona service contract: personas loaded from files, looked up by id or keyword, selected per session
// through the session setting `persona`.
import { type AalisError, defineService, type ServiceDescriptor } from '@aalis/core';
import type { Persona, PersonaInput } from './persona.js';

/** Which session (and which settings layers) to read the persona setting for. */
export interface PersonaScope {
  sessionId: string;
  platform?: string;
  venue?: string;
}

export interface PersonaReloadReport {
  /** The personas now loaded, ordered by id. */
  personas: Persona[];
  /** Files that could not be loaded (AALIS_PERSONA_INVALID, AALIS_PERSONA_DUPLICATE…). */
  problems: AalisError[];
}

export interface PersonaService {
  /** Every loaded persona, ordered by id. */
  list(): Persona[];
  get(id: string): Persona | undefined;
  /** Personas whose id or name contains the keyword (case-insensitive) first, then those whose prompt does. */
  search(keyword: string): Persona[];
  /**
   * The session's persona: the `persona` session setting when it names a loaded persona, otherwise the
   * configured default persona when loaded; undefined when neither (the agent then uses its systemPrompt only).
   */
  forSession(scope: PersonaScope): Promise<Persona | undefined>;
  /** Reads the files again. Broken files are reported and skipped; the others load. Emits persona:changed. */
  reload(): Promise<PersonaReloadReport>;
  /** The problems of the last load. */
  problems(): AalisError[];
  /**
   * Writes a persona (a new one as `<id>.yaml`; an existing one in its file, keeping its comments) and reloads.
   * `expectedRevision` absent = a new persona (AALIS_PERSONA_EXISTS when the id is taken); present = it must be the
   * loaded revision (AALIS_PERSONA_CHANGED when the file was edited since). Bad fields: AALIS_PERSONA_ID_INVALID,
   * AALIS_PERSONA_FIELD_EMPTY, AALIS_PERSONA_FIELD_TOO_LONG, AALIS_PERSONA_SCHEMA_INVALID.
   * Nothing is written on error. Absent on a read-only implementation.
   */
  save?(input: PersonaInput, expectedRevision?: string): Promise<Persona>;
  /**
   * Deletes a persona's file and reloads (AALIS_PERSONA_CHANGED as for save; AALIS_PERSONA_DEFAULT_KEPT for the
   * default persona). Absent on a read-only implementation.
   */
  delete?(id: string, expectedRevision: string): Promise<void>;
}

declare module '@aalis/core' {
  interface EventMap {
    /** The loaded personas changed (a reload). */
    'persona:changed': { ids: string[]; problems: AalisError[] };
  }
}

export const persona: ServiceDescriptor<PersonaService> = defineService<PersonaService>('persona');
