// A persona: who she is in a session (prompt), optionally with a structured-output schema for her replies.

/** Persona ids: 1–64 characters of a-z, A-Z, 0-9, '_', '-', '.'. */
export const PERSONA_ID_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;

/** The session-settings key selecting a session's persona (type 'select'). */
export const PERSONA_FIELD_KEY = 'persona';

export interface Persona {
  id: string;
  /** Display name. */
  name: string;
  /** The identity part of the system prompt. */
  prompt: string;
  /** JSON Schema (top level an object) her replies must follow; absent = free text. */
  structuredOutput?: Record<string, unknown>;
  /** Where it came from: the file name inside the personas directory. */
  file?: string;
  /** A hash of the file's text as loaded: a write that names it is refused when the file changed since. */
  revision?: string;
}

/** What a persona is saved from (the console's form): the fields a file holds. */
export interface PersonaInput {
  id: string;
  name: string;
  prompt: string;
  /** JSON Schema with type: object; null or absent = free text. */
  structuredOutput?: Record<string, unknown> | null;
}

/** Longest persona name and prompt a save accepts (characters). */
export const PERSONA_LIMITS = { name: 200, prompt: 100_000, structuredOutputJson: 64_000 } as const;
