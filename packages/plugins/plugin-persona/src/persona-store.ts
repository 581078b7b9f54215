// The persona service implementation: personas loaded from the directory, kept in memory until the next reload,
// and the session's persona read from the `persona` session setting.
import {
  type Persona,
  type PersonaInput,
  type PersonaReloadReport,
  type PersonaScope,
  type PersonaService,
  personaErrors,
} from '@aalis/api-persona';
import type { AalisError, Events, Locale, Logger } from '@aalis/core';
import { loadPersonas } from './load-personas.js';
import { deletePersonaFile, writePersonaFile } from './persona-writer.js';

export interface PersonaStoreOptions {
  dir: string;
  locale: Locale;
  /** The persona used when a session sets none (or one that is not loaded). '' = none. */
  defaultPersona: string;
  events: Pick<Events, 'emit'>;
  logger: Logger;
  /** The session's `persona` setting value; undefined when session settings are absent or it is unset. */
  readSetting(scope: PersonaScope): Promise<unknown>;
}

export class PersonaStore implements PersonaService {
  private personas: Persona[] = [];
  private loadProblems: AalisError[] = [];
  private loading: Promise<PersonaReloadReport> | undefined;
  private readonly warnedMissing = new Set<string>();

  constructor(private readonly options: PersonaStoreOptions) {}

  list(): Persona[] {
    return [...this.personas];
  }

  get(id: string): Persona | undefined {
    return this.personas.find((persona) => persona.id === id);
  }

  search(keyword: string): Persona[] {
    const needle = keyword.trim().toLowerCase();
    if (needle === '') return this.list();
    const inTitle = this.personas.filter(
      (persona) => persona.id.toLowerCase().includes(needle) || persona.name.toLowerCase().includes(needle),
    );
    const inPrompt = this.personas.filter(
      (persona) => !inTitle.includes(persona) && persona.prompt.toLowerCase().includes(needle),
    );
    return [...inTitle, ...inPrompt];
  }

  async forSession(scope: PersonaScope): Promise<Persona | undefined> {
    const value = await this.options.readSetting(scope);
    if (typeof value === 'string' && value !== '') {
      const chosen = this.get(value);
      if (chosen) return chosen;
      if (!this.warnedMissing.has(value)) {
        this.warnedMissing.add(value);
        this.options.logger.warn('a session names a persona that is not loaded; using the default persona', {
          persona: value,
          sessionId: scope.sessionId,
        });
      }
    }
    return this.options.defaultPersona === '' ? undefined : this.get(this.options.defaultPersona);
  }

  problems(): AalisError[] {
    return [...this.loadProblems];
  }

  /** Writes the persona's file (see PersonaService.save), one write at a time, and reloads. */
  save(input: PersonaInput, expectedRevision?: string): Promise<Persona> {
    return this.serially(async () => {
      const { dir, locale } = this.options;
      await writePersonaFile(input, expectedRevision, { dir, locale, current: this.get(input.id) });
      await this.reload();
      const saved = this.get(input.id);
      // Loaded back from what was just written and checked: absent only if the file vanished meanwhile.
      if (!saved) throw personaErrors.AALIS_PERSONA_CHANGED({ file: `${input.id}.yaml` });
      this.options.logger.info('persona saved', { persona: input.id, file: saved.file });
      return saved;
    });
  }

  /** Deletes the persona's file (see PersonaService.delete) and reloads. */
  delete(id: string, expectedRevision: string): Promise<void> {
    return this.serially(async () => {
      const current = this.get(id);
      if (!current) {
        throw personaErrors.AALIS_PERSONA_UNKNOWN({ id, known: this.personas.map((p) => p.id).join(', ') || '-' });
      }
      if (id === this.options.defaultPersona) throw personaErrors.AALIS_PERSONA_DEFAULT_KEPT({ id });
      await deletePersonaFile(current, expectedRevision, { dir: this.options.dir });
      await this.reload();
      this.options.logger.info('persona deleted', { persona: id });
    });
  }

  private writing: Promise<unknown> = Promise.resolve();

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writing.then(work, work);
    this.writing = run.catch(() => {});
    return run;
  }

  /** Reloads; concurrent calls share one read of the directory. */
  reload(): Promise<PersonaReloadReport> {
    if (!this.loading) {
      this.loading = this.read().finally(() => {
        this.loading = undefined;
      });
    }
    return this.loading;
  }

  private async read(): Promise<PersonaReloadReport> {
    const { personas, problems } = await loadPersonas({ dir: this.options.dir, locale: this.options.locale });
    this.personas = personas;
    this.loadProblems = problems;
    this.warnedMissing.clear();
    for (const problem of problems) this.options.logger.error(problem.message, { code: problem.code });
    this.options.events.emit('persona:changed', { ids: personas.map((persona) => persona.id), problems });
    return { personas: [...personas], problems: [...problems] };
  }
}
