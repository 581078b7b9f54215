// Every zh-CN text of every catalogue in the repository uses full-width punctuation inside Chinese sentences
// (，：；（）), as the specification's own wording does: a half-width , : ; ( ) next to a Chinese character fails.
// The modules that register catalogues (defineCatalogue / defineErrors) are found in the sources and loaded, then
// core's registry is read whole, so a new catalogue is checked without being listed here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
// Core's own registry module, by path: the same module the catalogues register into through `@aalis/core`.
import { fillPlaceholders, registeredTexts } from '../../../../host/core/src/i18n.js';
import { halfWidthInChinese } from './half-width-in-chinese.js';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..', '..');
const REGISTERS = /\bdefine(?:Catalogue|Errors)\(/;
/**
 * Model-only texts the specification quotes word for word (as received, with half-width marks): the model reads
 * them, no page shows them, and the specification's wording wins.
 */
const SPECIFICATION_WORDING = new Set(['context.continuationPrompt']);

/** Source files (not tests or test helpers) under packages/<role>/<package>/src that register texts. */
function catalogueModules(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.ts$/.test(entry.name) && !/\.(test|case|bench)\.ts$|\.d\.ts$/.test(entry.name)) {
        if (REGISTERS.test(readFileSync(path, 'utf8'))) found.push(path);
      }
    }
  };
  const packages = join(ROOT, 'packages');
  for (const role of readdirSync(packages, { withFileTypes: true })) {
    if (!role.isDirectory()) continue;
    for (const pkg of readdirSync(join(packages, role.name), { withFileTypes: true })) {
      const src = join(packages, role.name, pkg.name, 'src');
      if (pkg.isDirectory() && readdirSync(join(packages, role.name, pkg.name)).includes('src')) walk(src);
    }
  }
  return found;
}

let modules: string[] = [];

beforeAll(async () => {
  modules = catalogueModules();
  for (const path of modules) await import(pathToFileURL(path).href);
}, 60_000);

describe('zh-CN catalogues', () => {
  it('are found and loaded: the page, the host, the agent and the session server among them', () => {
    const names = modules.map((path) => relative(ROOT, path));
    expect(names).toEqual(
      expect.arrayContaining([
        'packages/plugins/plugin-webui/src/page/texts.ts',
        'packages/host/runtime/src/runtime-texts.ts',
        'packages/plugins/plugin-agent/src/agent-catalogue.ts',
        'packages/plugins/plugin-session-server/src/server-texts.ts',
      ]),
    );
    expect(registeredTexts('zh-CN').size).toBeGreaterThan(500);
  });

  it('use full-width ，：；（） inside Chinese sentences', () => {
    const offences: string[] = [];
    for (const [key, text] of registeredTexts('zh-CN')) {
      if (SPECIFICATION_WORDING.has(key)) continue;
      for (const found of halfWidthInChinese(text)) offences.push(`${key}: …${found}…`);
    }
    expect(offences).toEqual([]);
  });
});

// Checked here because this file loads every catalogue already: the plural choices of the en texts.
describe('en plural choices', () => {
  const CHOICE = /\{(\w+)\s*,\s*plural\s*,/g;

  it('are well formed (they render for 1 and 2), and the zh-CN text keeps the plain placeholder', () => {
    const offences: string[] = [];
    const zh = registeredTexts('zh-CN');
    let choices = 0;
    for (const [key, text] of registeredTexts('en')) {
      const names = [...text.matchAll(CHOICE)].map((match) => match[1]!);
      choices += names.length;
      for (const count of [1, 2]) {
        const rendered = fillPlaceholders(text, Object.fromEntries(names.map((name) => [name, count])), 'en');
        if (/,\s*plural\s*,/.test(rendered)) offences.push(`${key}: not a well-formed choice`);
      }
      for (const name of names) {
        if (!zh.get(key)?.includes(`{${name}}`)) offences.push(`${key}: the zh-CN text has no {${name}}`);
      }
    }
    expect(offences).toEqual([]);
    expect(choices).toBeGreaterThan(30);
  });
});
