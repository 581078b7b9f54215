import { CONFIG_SECRET_MASK, type SchemaView } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import {
  defaultText,
  formFields,
  inputText,
  isMasked,
  issuesByField,
  parseInput,
  valueAt,
  withValue,
} from './plugin-settings.js';

const SCHEMA: SchemaView = {
  type: 'object',
  fields: {
    systemPrompt: { type: 'string', widget: 'textarea', default: '', description: 'Rules.' },
    apiKey: { type: 'string', widget: 'password', optional: true },
    token: { type: 'string', optional: true },
    maxRounds: { type: 'number', integer: true, min: 1, max: 50, default: 8 },
    ratio: { type: 'number', default: 0.8 },
    stream: { type: 'boolean', default: true },
    reasoning: { type: 'enum', values: ['collapsed', 'expanded', 'hidden'], default: 'collapsed' },
    names: { type: 'array', items: { type: 'string' }, default: [] },
    headers: { type: 'record', items: { type: 'string' }, optional: true },
    models: { type: 'array', items: { type: 'object', fields: { id: { type: 'string' } } } },
    transcription: {
      type: 'object',
      optional: true,
      fields: { baseUrl: { type: 'string' }, apiKey: { type: 'string', widget: 'password', optional: true } },
    },
    anything: { type: 'unknown' },
  },
};

describe('formFields', () => {
  it('gives each key a control fitting its type, with help, default and bounds', () => {
    const fields = formFields(SCHEMA, ['token']);
    const byKey = Object.fromEntries(fields.map((field) => [field.key, field]));
    expect(Object.fromEntries(fields.map((field) => [field.key, field.control]))).toEqual({
      systemPrompt: 'textarea',
      apiKey: 'password',
      token: 'password',
      maxRounds: 'number',
      ratio: 'number',
      stream: 'boolean',
      reasoning: 'enum',
      names: 'list',
      headers: 'record',
      models: 'json',
      transcription: 'group',
      anything: 'json',
    });
    expect(byKey.systemPrompt).toMatchObject({ help: 'Rules.', default: '', path: 'systemPrompt' });
    expect(byKey.maxRounds).toMatchObject({ min: 1, max: 50, integer: true, default: 8 });
    expect(byKey.reasoning?.values).toEqual(['collapsed', 'expanded', 'hidden']);
    expect(byKey.names?.entry).toBe('text');
    expect(byKey.transcription?.fields?.map((field) => [field.path, field.control])).toEqual([
      ['transcription.baseUrl', 'text'],
      ['transcription.apiKey', 'password'],
    ]);
  });

  it('gives nothing for a schema that is not an object', () => {
    expect(formFields({ type: 'unknown' })).toEqual([]);
  });
});

describe('the draft', () => {
  it('reads and writes by dotted path, leaving out emptied groups', () => {
    let draft: Record<string, unknown> = { systemPrompt: 'a' };
    draft = withValue(draft, 'transcription.baseUrl', 'http://x');
    expect(valueAt(draft, 'transcription.baseUrl')).toBe('http://x');
    draft = withValue(draft, 'transcription.baseUrl', undefined);
    expect(draft).toEqual({ systemPrompt: 'a' });
    expect(withValue(draft, 'missing.key', undefined)).toEqual({ systemPrompt: 'a' });
  });

  it('parses what is typed: numbers, JSON, and an emptied text as the default', () => {
    const [prompt, , token, rounds, , , , , , models] = formFields(SCHEMA);
    expect(parseInput(rounds!, '12')).toEqual({ value: 12 });
    expect(parseInput(rounds!, '')).toEqual({ value: undefined });
    expect(parseInput(rounds!, 'twelve')).toEqual({ problem: 'number' });
    expect(parseInput(models!, '[{"id":"m"}]')).toEqual({ value: [{ id: 'm' }] });
    expect(parseInput(models!, '[{')).toEqual({ problem: 'json' });
    expect(parseInput(prompt!, '')).toEqual({ value: undefined });
    expect(parseInput(token!, 'abc')).toEqual({ value: 'abc' });
    expect(inputText(models!, [{ id: 'm' }])).toBe('[\n  {\n    "id": "m"\n  }\n]');
    expect(defaultText(rounds!)).toBe('8');
    expect(defaultText(prompt!)).toBeUndefined();
    expect(isMasked(CONFIG_SECRET_MASK)).toBe(true);
  });
});

describe('issuesByField', () => {
  it('puts each issue under its field, a list item’s under its list, others under the form', () => {
    const fields = formFields(SCHEMA);
    const issue = (path: string) => ({ path, expected: 'x', received: 'y' });
    const byField = issuesByField(
      [
        issue('plugins.agent.maxRounds'),
        issue('plugins.agent.models.0.id'),
        issue('plugins.agent.transcription.baseUrl'),
        issue('plugins.agent.nonsense'),
        issue('llm.baseUrl'),
      ],
      'plugins.agent',
      fields,
    );
    expect([...byField.keys()]).toEqual(['maxRounds', 'models', 'transcription.baseUrl', '']);
    expect(byField.get('')?.map((entry) => entry.path)).toEqual(['plugins.agent.nonsense', 'llm.baseUrl']);
  });
});
