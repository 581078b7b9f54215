// Conformance suite of the persona service. An implementation's test calls
//   describePersonaConformance('plugin-persona', () => fixture)
// The fixture names the directory persona files are read from and starts a real App with the implementation and
// what it requires; the suite writes the files and adds a fake session settings service through provide.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AnySessionField,
  type OptionSource,
  type SessionFieldsService,
  sessionFields,
} from '@aalis/api-session-settings';
import {
  type AalisError,
  type AnyPluginDefinition,
  type App,
  definePlugin,
  events,
  provide,
  type ServiceHandle,
  translate,
} from '@aalis/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PERSONA_FIELD_KEY } from './persona.js';
import { type PersonaService, persona } from './persona-service.js';

export interface PersonaFixture {
  /** The directory the implementation reads persona files from (it may not exist before the first start). */
  readonly dir: string;
  /** Builds and starts an App with the implementation, what it requires and `extras`. */
  start(extras: readonly AnyPluginDefinition[]): Promise<App>;
  stop(): Promise<void>;
  /** Removes the data (after stop). */
  dispose(): Promise<void>;
}

/** Session-layer values only, enough to check the `persona` field. */
class FakeSettings {
  readonly fields = new Map<string, AnySessionField>();
  readonly sources = new Map<string, OptionSource>();
  readonly values = new Map<string, unknown>();
  register(field: AnySessionField) {
    this.fields.set(field.key, field);
    return () => this.fields.delete(field.key);
  }
  registerOptionSource(name: string, source: OptionSource) {
    this.sources.set(name, source);
    return () => this.sources.delete(name);
  }
  field(key: string) {
    const field = this.fields.get(key);
    return field ? { field, plugin: '' } : undefined;
  }
  async get(scope: { sessionId: string }, key: string) {
    const value = this.values.get(`${scope.sessionId}/${key}`);
    if (value !== undefined) return { value, layer: 'session' as const };
    return { value: this.fields.get(key)?.default, layer: 'default' as const };
  }
}

const yaml = (id: string, name: string, prompt: string) => `id: ${id}\nname: ${name}\nprompt: |\n  ${prompt}\n`;

function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((file) => [file, readFileSync(join(dir, file), 'utf8')]));
}

export function describePersonaConformance(
  name: string,
  createFixture: () => PersonaFixture | Promise<PersonaFixture>,
): void {
  describe(`persona conformance: ${name}`, () => {
    let fixture: PersonaFixture;
    let service: ServiceHandle<PersonaService>;
    let settings: FakeSettings | undefined;
    let changes: { ids: string[]; problems: AalisError[] }[];

    const boot = async ({ withSettings = false } = {}) => {
      settings = withSettings ? new FakeSettings() : undefined;
      changes = [];
      const extras: AnyPluginDefinition[] = [
        definePlugin({
          name: 'persona-probe',
          uses: { persona, events },
          apply(handles) {
            service = handles.persona;
            handles.events.use.on('persona:changed', (change) => {
              changes.push(change);
            });
          },
        }),
      ];
      if (settings) {
        const fake = settings;
        extras.unshift(
          definePlugin({
            name: 'fake-settings',
            uses: { provide },
            apply({ provide }) {
              provide.use.service(sessionFields, fake as unknown as SessionFieldsService);
            },
          }),
        );
      }
      const app = await fixture.start(extras);
      expect(app.stateOf('persona-probe').state).toBe('active');
      return service.use;
    };

    const write = (files: Record<string, string>) => {
      mkdirSync(fixture.dir, { recursive: true });
      for (const [file, text] of Object.entries(files)) writeFileSync(join(fixture.dir, file), text);
    };

    beforeEach(async () => {
      fixture = await createFixture();
    });

    afterEach(async () => {
      await fixture.stop();
      await fixture.dispose();
    });

    it('creates the directory with one default persona on first start', async () => {
      expect(existsSync(fixture.dir)).toBe(false);
      const personas = await boot();
      expect(readdirSync(fixture.dir)).toHaveLength(1);
      const [first] = personas.list();
      expect(personas.list()).toHaveLength(1);
      expect(first?.prompt.length).toBeGreaterThan(0);
      expect(await personas.forSession({ sessionId: 's1' })).toEqual(first);
      expect(personas.problems()).toEqual([]);
    });

    it('does not recreate the default persona when the directory exists', async () => {
      write({ 'x.yaml': yaml('x', 'X', 'Only x.') });
      const personas = await boot();
      expect(personas.list().map((entry) => entry.id)).toEqual(['x']);
      expect(readdirSync(fixture.dir)).toEqual(['x.yaml']);
    });

    it('loads every file, looks personas up by id and searches them', async () => {
      write({
        'b.yaml': yaml('bard', 'The Bard', 'You speak in verse.'),
        'a.yml': yaml('analyst', 'Analyst', 'You answer with numbers and verse-free prose.'),
        'notes.txt': 'not a persona',
        'c.yaml': `id: critic\nname: Critic\nprompt: Judge things.\nstructuredOutput:\n  type: object\n  properties:\n    verdict: { type: string }\n  required: [verdict]\n`,
      });
      const personas = await boot();
      expect(personas.list().map((entry) => entry.id)).toEqual(['analyst', 'bard', 'critic']);
      expect(personas.get('bard')).toMatchObject({ id: 'bard', name: 'The Bard', prompt: 'You speak in verse.' });
      expect(personas.get('critic')?.structuredOutput).toEqual({
        type: 'object',
        properties: { verdict: { type: 'string' } },
        required: ['verdict'],
      });
      expect(personas.get('nobody')).toBeUndefined();
      expect(personas.search('BARD').map((entry) => entry.id)).toEqual(['bard']);
      expect(personas.search('verse').map((entry) => entry.id)).toEqual(['analyst', 'bard']);
      expect(personas.search('anal').map((entry) => entry.id)).toEqual(['analyst']);
      expect(personas.search('').map((entry) => entry.id)).toEqual(['analyst', 'bard', 'critic']);
    });

    it('reports a YAML error with file, line and column while the others load, writing nothing', async () => {
      write({
        'good.yaml': yaml('good', 'Good', 'Fine.'),
        'broken.yaml': 'id: broken\nname: "unterminated\nprompt: x\n',
        'missing.yaml': 'id: missing\nname: Missing\n',
        'typo.yaml': 'id: typo\nname: Typo\npromt: oops\n',
      });
      const before = snapshot(fixture.dir);
      const personas = await boot();
      expect(personas.list().map((entry) => entry.id)).toEqual(['good']);
      const problems = personas.problems();
      expect(problems.map((problem) => problem.code)).toEqual([
        'AALIS_PERSONA_INVALID',
        'AALIS_PERSONA_INVALID',
        'AALIS_PERSONA_INVALID',
      ]);
      const byFile = Object.fromEntries(problems.map((problem) => [problem.details.file, problem]));
      expect(byFile['broken.yaml']?.details).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
      expect(byFile['broken.yaml']?.message).toContain('broken.yaml');
      expect(byFile['missing.yaml']?.message).toContain('prompt');
      expect(byFile['typo.yaml']?.details).toMatchObject({ line: 3, column: 1 });
      expect(byFile['typo.yaml']?.message).toContain('promt');
      const report = await personas.reload();
      expect(report.problems).toHaveLength(3);
      expect(changes.at(-1)?.problems).toHaveLength(3);
      expect(snapshot(fixture.dir)).toEqual(before);
    });

    it('keeps the first of two files with the same id and reports the second', async () => {
      write({ 'a.yaml': yaml('same', 'First', 'One.'), 'b.yaml': yaml('same', 'Second', 'Two.') });
      const personas = await boot();
      expect(personas.get('same')?.name).toBe('First');
      expect(personas.problems().map((problem) => problem.code)).toEqual(['AALIS_PERSONA_DUPLICATE']);
    });

    it('reloads changed files and emits persona:changed', async () => {
      write({ 'a.yaml': yaml('a', 'A', 'One.') });
      const personas = await boot();
      write({ 'b.yaml': yaml('b', 'B', 'Two.'), 'a.yaml': yaml('a', 'A2', 'One again.') });
      const report = await personas.reload();
      expect(report.personas.map((entry) => entry.id)).toEqual(['a', 'b']);
      expect(personas.get('a')?.name).toBe('A2');
      expect(changes.at(-1)).toEqual({ ids: ['a', 'b'], problems: [] });
    });

    it('selects the session persona through the persona setting, falling back to the default', async () => {
      write({ 'default.yaml': yaml('default', 'Default', 'Plain.'), 'bard.yaml': yaml('bard', 'Bard', 'Verse.') });
      const personas = await boot({ withSettings: true });
      const field = settings!.fields.get(PERSONA_FIELD_KEY);
      expect(field).toMatchObject({ type: 'select', visibility: 'composer', level: 1 });
      expect(translate(field!.label, 'en').length).toBeGreaterThan(0);
      const validate = field!.validate as (value: string) => unknown;
      expect(validate('bard')).toBeUndefined();
      expect(validate('nobody')).toBeDefined();
      const source = settings!.sources.get(field!.dynamicOptions!.source)!;
      expect((await source({ sessionId: 's1', values: {} })).map((option) => option.value)).toEqual([
        'bard',
        'default',
      ]);
      settings!.values.set('s1/persona', 'bard');
      settings!.values.set('s2/persona', 'deleted-meanwhile');
      expect((await personas.forSession({ sessionId: 's1' }))?.id).toBe('bard');
      expect((await personas.forSession({ sessionId: 's2' }))?.id).toBe('default');
      expect((await personas.forSession({ sessionId: 's3' }))?.id).toBe('default');
    });
  });
}
