// The persona service implementation: personas loaded from the directory, kept in memory until the next reload,
// and the session's persona read from the `persona` session setting.
import type { Persona, PersonaReloadReport, PersonaScope, PersonaService } from '@aalis/api-persona';
import type { AalisError, Events, Locale, Logger } from '@aalis/core';
import { loadPersonas } from './load-personas.js';

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
