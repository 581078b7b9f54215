import { validateJsonSchema } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { closedParameters } from './closed-parameters.js';

describe('closedParameters', () => {
  it('writes the object schema in the order models are sent it, required only when any is', () => {
    const id = { type: 'string', minLength: 1 } as const;
    expect(JSON.stringify(closedParameters({ id }, ['id']))).toBe(
      '{"type":"object","properties":{"id":{"type":"string","minLength":1}},"required":["id"],"additionalProperties":false}',
    );
    expect(closedParameters({})).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('refuses a key it does not name and a missing required one', () => {
    const schema = closedParameters({ id: { type: 'string' } }, ['id']);
    expect(validateJsonSchema(schema, { id: 'a' })).toEqual([]);
    expect(validateJsonSchema(schema, { id: 'a', other: 1 })).not.toEqual([]);
    expect(validateJsonSchema(schema, {})).not.toEqual([]);
  });
});
