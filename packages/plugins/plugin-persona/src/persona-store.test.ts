// Saving and deleting personas through the store (what the console's admin.personas.* requests call): a new file, an
// edit that keeps the file's comments, a hand edit detected, bad fields refused, the default kept — and nothing
// written on any refusal.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogHub, memorySink } from '@aalis/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultPersonaYaml } from './default-persona.js';
import { PersonaStore } from './persona-store.js';

let dir: string;
let store: PersonaStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-persona-store-'));
  writeFileSync(join(dir, 'default.yaml'), defaultPersonaYaml({ id: 'default', locale: 'en' }));
  store = new PersonaStore({
    dir,
    locale: 'en',
    defaultPersona: 'default',
    events: { emit() {} },
    logger: new LogHub([memorySink()]).logger('persona'),
    readSetting: async () => undefined,
  });
  await store.reload();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code: string }).code;
  }
  return 'no error';
}

describe('PersonaStore.save / delete', () => {
  it('creates a new persona as <id>.yaml and loads it with a revision', async () => {
    const saved = await store.save({ id: 'pirate', name: 'Pirate', prompt: 'Talk like a pirate.\nAlways.' });
    expect(saved).toMatchObject({ id: 'pirate', name: 'Pirate', prompt: 'Talk like a pirate.\nAlways.' });
    expect(saved.file).toBe('pirate.yaml');
    expect(saved.revision).toMatch(/^[0-9a-f]{16}$/);
    expect(readFileSync(join(dir, 'pirate.yaml'), 'utf8')).toContain('prompt: |');
    expect(store.list().map((persona) => persona.id)).toEqual(['default', 'pirate']);
  });

  it('edits a persona in its own file, keeping the comments, and gives a new revision', async () => {
    const before = store.get('default')!;
    const saved = await store.save(
      { id: 'default', name: 'Aalis', prompt: 'Be brief.', structuredOutput: { type: 'object' } },
      before.revision,
    );
    const text = readFileSync(join(dir, 'default.yaml'), 'utf8');
    expect(text).toContain('# A persona: id');
    expect(text).toMatch(/name: "?Aalis"?\n/);
    expect(saved.structuredOutput).toEqual({ type: 'object' });
    expect(saved.revision).not.toBe(before.revision);
  });

  it('refuses a file edited by hand since it was read, and writes nothing', async () => {
    const before = store.get('default')!;
    const edited = `${readFileSync(join(dir, 'default.yaml'), 'utf8')}# edited by hand\n`;
    writeFileSync(join(dir, 'default.yaml'), edited);
    expect(await codeOf(store.save({ id: 'default', name: 'X', prompt: 'Y' }, before.revision))).toBe(
      'AALIS_PERSONA_CHANGED',
    );
    expect(readFileSync(join(dir, 'default.yaml'), 'utf8')).toBe(edited);
  });

  it('refuses a taken id, a bad id, an empty prompt and a schema that is not an object, writing nothing', async () => {
    const files = readdirSync(dir).sort();
    expect(await codeOf(store.save({ id: 'default', name: 'Again', prompt: 'p' }))).toBe('AALIS_PERSONA_EXISTS');
    expect(await codeOf(store.save({ id: 'bad id!', name: 'n', prompt: 'p' }))).toBe('AALIS_PERSONA_ID_INVALID');
    expect(await codeOf(store.save({ id: 'ok', name: 'n', prompt: '   ' }))).toBe('AALIS_PERSONA_FIELD_EMPTY');
    expect(await codeOf(store.save({ id: 'ok', name: 'n', prompt: 'p', structuredOutput: { type: 'array' } }))).toBe(
      'AALIS_PERSONA_SCHEMA_INVALID',
    );
    expect(readdirSync(dir).sort()).toEqual(files);
  });

  it('says what is wrong with a field in the reader’s language', async () => {
    try {
      await store.save({ id: 'ok', name: '', prompt: 'p' });
      expect.unreachable();
    } catch (error) {
      const coded = error as { localized(locale: 'en' | 'zh-CN'): string; code: string };
      expect(coded.code).toBe('AALIS_PERSONA_FIELD_EMPTY');
      expect(coded.localized('en')).toContain('name must not be empty');
      expect(coded.localized('zh-CN')).toContain('name 不能为空');
    }
  });

  it('deletes a persona with its revision, keeps the default, and refuses a stale revision', async () => {
    const saved = await store.save({ id: 'pirate', name: 'Pirate', prompt: 'Arr.' });
    expect(await codeOf(store.delete('pirate', 'stale'))).toBe('AALIS_PERSONA_CHANGED');
    await store.delete('pirate', saved.revision!);
    expect(store.get('pirate')).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['default.yaml']);
    expect(await codeOf(store.delete('default', store.get('default')!.revision!))).toBe('AALIS_PERSONA_DEFAULT_KEPT');
    expect(await codeOf(store.delete('nobody', 'x'))).toBe('AALIS_PERSONA_UNKNOWN');
  });
});
