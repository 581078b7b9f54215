// Reads every *.yaml / *.yml file of the personas directory (sorted by name). Broken files and duplicate ids are
// reported and skipped; the rest load. Nothing is written here.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Persona, personaErrors } from '@aalis/api-persona';
import type { AalisError, Locale } from '@aalis/core';
import { parsePersonaFile } from './parse-persona-file.js';
import { personaRevision } from './persona-writer.js';

export interface LoadedPersonas {
  personas: Persona[];
  problems: AalisError[];
}

export async function loadPersonas({ dir, locale }: { dir: string; locale: Locale }): Promise<LoadedPersonas> {
  let names: string[];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    names = entries
      .filter((entry) => entry.isFile() && /\.ya?ml$/i.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { personas: [], problems: [personaErrors.AALIS_PERSONA_DIRECTORY_UNREADABLE({ dir, reason })] };
  }
  const byId = new Map<string, Persona>();
  const problems: AalisError[] = [];
  for (const file of names) {
    const text = await readFile(join(dir, file), 'utf8');
    const parsed = parsePersonaFile({ file, text, locale });
    if (parsed.ok) parsed.persona.revision = personaRevision(text);
    if (!parsed.ok) {
      problems.push(parsed.error);
      continue;
    }
    const existing = byId.get(parsed.persona.id);
    if (existing) {
      problems.push(personaErrors.AALIS_PERSONA_DUPLICATE({ id: parsed.persona.id, file, other: existing.file ?? '' }));
      continue;
    }
    byId.set(parsed.persona.id, parsed.persona);
  }
  const personas = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { personas, problems };
}
