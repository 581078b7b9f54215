// The persona directory's first-start content: one default persona file, in the app's locale.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Locale, translate } from '@aalis/core';
import './persona-texts.js';

export const DEFAULT_PERSONA_FILE = 'default.yaml';

export function defaultPersonaYaml({ id, locale }: { id: string; locale: Locale }): string {
  return [
    '# A persona: id (a-z, A-Z, 0-9, _ - .), name, prompt, and optionally structuredOutput (a JSON Schema mapping',
    '# with type: object that replies must follow). Every *.yaml file in this directory is one persona.',
    `id: ${JSON.stringify(id)}`,
    `name: ${JSON.stringify(translate({ key: 'persona.default.name' }, locale))}`,
    'prompt: |',
    ...translate({ key: 'persona.default.prompt' }, locale)
      .split('\n')
      .map((line) => `  ${line}`),
    '',
  ].join('\n');
}

/** Creates the directory with one default persona when the directory does not exist yet. Returns whether it did. */
export async function ensurePersonaDirectory({
  dir,
  id,
  locale,
}: {
  dir: string;
  id: string;
  locale: Locale;
}): Promise<boolean> {
  if (existsSync(dir)) return false;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, DEFAULT_PERSONA_FILE), defaultPersonaYaml({ id, locale }), { flag: 'wx' });
  return true;
}
