import { describe, expect, it } from 'vitest';
import { s } from './schema.js';

describe('schema', () => {
  it('fills defaults, including nested objects whose fields all have defaults', () => {
    const schema = s.object({ a: s.string().default('x'), nested: s.object({ n: s.number().default(2) }) });
    expect(schema.validate(undefined)).toEqual({ value: { a: 'x', nested: { n: 2 } }, issues: [] });
  });

  it('reports each wrong field with its path, what was expected and what was received', () => {
    const schema = s.object({
      name: s.string().nonEmpty(),
      limits: s.object({ max: s.number().integer().min(1) }),
      tags: s.array(s.string()),
      mode: s.enum(['fast', 'slow']),
    });
    const { issues } = schema.validate({ name: '', limits: { max: 1.5 }, tags: ['a', 3], mode: 'medium' });
    expect(issues).toEqual([
      { path: 'name', expected: 'a non-empty string', received: 'the string ""' },
      { path: 'limits.max', expected: 'an integer ≥ 1', received: 'number 1.5' },
      { path: 'tags.1', expected: 'a string', received: 'number 3' },
      { path: 'mode', expected: 'one of "fast", "slow"', received: 'the string "medium"' },
    ]);
  });

  it('reports a missing required field and unknown keys', () => {
    const { issues } = s.object({ url: s.string() }).validate({ ulr: 'http://x' });
    expect(issues).toEqual([
      { path: 'url', expected: 'a string', received: 'nothing' },
      { path: 'ulr', expected: 'no such field (unknown key)', received: 'the string "http://x"' },
    ]);
  });

  it('keeps unknown keys with passthrough, and accepts absent optional fields', () => {
    const schema = s.object({ a: s.number().optional() }).passthrough();
    expect(schema.validate({ extra: 1 })).toEqual({ value: { extra: 1 }, issues: [] });
  });

  it('validates records and booleans', () => {
    const schema = s.record(s.boolean());
    expect(schema.validate({ a: true }).issues).toEqual([]);
    expect(schema.validate({ a: 'yes' }).issues[0]).toMatchObject({ path: 'a', expected: 'true or false' });
  });

  it('does not share default objects between validations', () => {
    const schema = s.object({ list: s.array(s.string()).default([]) });
    const first = schema.validate({}).value;
    first.list.push('mutated');
    expect(schema.validate({}).value.list).toEqual([]);
  });

  it('describes itself for generated documentation', () => {
    const schema = s.object({ ratio: s.number().min(0).max(1).default(0.15).describe('Share of the window') });
    expect(schema.toJSON()).toMatchObject({
      type: 'object',
      fields: { ratio: { type: 'number', min: 0, max: 1, default: 0.15, description: 'Share of the window' } },
    });
  });
});
