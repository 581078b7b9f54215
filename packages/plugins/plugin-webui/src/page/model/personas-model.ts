// The 人格/Personas section's state: the personas (with the files that could not be loaded), the one being edited
// or created, and the actions that save and delete them (each checked against the file's revision by the host).
import type { PersonaProblemView, PersonaView, SessionClient } from '@aalis/session-client';
import { StateStore } from './store.js';

export interface PersonaDraft {
  /** Present when editing a saved persona (its revision); absent for a new one. */
  revision?: string;
  personaId: string;
  name: string;
  prompt: string;
  /** JSON text; '' = none. */
  structuredOutput: string;
}

export interface PersonasSnapshot {
  personas: readonly PersonaView[];
  problems: readonly PersonaProblemView[];
  draft?: PersonaDraft;
  busy: boolean;
  error?: string;
  saved: boolean;
}

/** The draft's structured output as an object; undefined for none; 'invalid' when it is not a JSON object. */
export function structuredOutputOf(text: string): Record<string, unknown> | null | 'invalid' {
  if (text.trim() === '') return null;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : 'invalid';
  } catch {
    return 'invalid';
  }
}

export function draftOf(persona: PersonaView): PersonaDraft {
  return {
    revision: persona.revision,
    personaId: persona.id,
    name: persona.name,
    prompt: persona.prompt,
    structuredOutput: persona.structuredOutput ? JSON.stringify(persona.structuredOutput, null, 2) : '',
  };
}

export class PersonasModel extends StateStore<PersonasSnapshot> {
  constructor(
    private readonly client: SessionClient,
    private readonly describeError: (error: unknown) => string,
  ) {
    super({ personas: [], problems: [], busy: false, saved: false });
  }

  async load(): Promise<void> {
    try {
      const listed = await this.client.request('admin.personas.list', {});
      this.set({ personas: listed.personas, problems: listed.problems });
    } catch (error) {
      this.set({ error: this.describeError(error) });
    }
  }

  edit(persona: PersonaView | undefined): void {
    this.set({
      draft: persona ? draftOf(persona) : { personaId: '', name: '', prompt: '', structuredOutput: '' },
      error: undefined,
      saved: false,
    });
  }

  close(): void {
    this.set({ draft: undefined, error: undefined });
  }

  async save(draft: PersonaDraft, invalidSchema: string): Promise<void> {
    const schema = structuredOutputOf(draft.structuredOutput);
    if (schema === 'invalid') {
      this.set({ error: invalidSchema });
      return;
    }
    this.set({ busy: true, error: undefined, saved: false });
    try {
      const saved = await this.client.request('admin.personas.save', {
        personaId: draft.personaId.trim(),
        name: draft.name,
        prompt: draft.prompt,
        structuredOutput: schema,
        ...(draft.revision ? { revision: draft.revision } : {}),
      });
      await this.load();
      this.set({ busy: false, saved: true, draft: draftOf(saved.persona) });
    } catch (error) {
      this.set({ busy: false, error: this.describeError(error) });
    }
  }

  async remove(persona: PersonaView): Promise<void> {
    this.set({ busy: true, error: undefined, saved: false });
    try {
      await this.client.request('admin.personas.delete', { personaId: persona.id, revision: persona.revision });
      this.set({ busy: false, draft: undefined });
      await this.load();
    } catch (error) {
      this.set({ busy: false, error: this.describeError(error) });
    }
  }
}
