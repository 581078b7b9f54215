import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './json-schema.js';
import { validateJsonSchema } from './validate-json-schema.js';

const paths = (schema: JsonSchema, value: unknown) =>
  validateJsonSchema(schema, value).map((violation) => `${violation.path} ${violation.keyword}`);

describe('validateJsonSchema', () => {
  it('checks types, including integer and type arrays for nullable values', () => {
    expect(paths({ type: 'string' }, 1)).toEqual(['$ type']);
    expect(paths({ type: 'integer' }, 1.5)).toEqual(['$ type']);
    expect(paths({ type: 'integer' }, 2)).toEqual([]);
    expect(paths({ type: 'number' }, Number.NaN)).toEqual(['$ type']);
    expect(paths({ type: ['string', 'null'] }, null)).toEqual([]);
    expect(paths({ type: 'string', nullable: true }, null)).toEqual([]);
    expect(paths({ type: 'object' }, [])).toEqual(['$ type']);
    expect(paths({ type: 'array' }, {})).toEqual(['$ type']);
    expect(validateJsonSchema({ type: ['string', 'null'] }, 3)[0]?.params).toEqual({
      expected: 'string | null',
      received: 'integer',
    });
  });

  it('checks properties, required and additionalProperties with paths', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        'b c': { type: 'number' },
        nested: { type: 'object', properties: { x: { type: 'boolean' } }, required: ['x'] },
      },
      required: ['a', 'nested'],
      additionalProperties: false,
    };
    expect(paths(schema, { a: 'x', nested: { x: true } })).toEqual([]);
    expect(paths(schema, { 'b c': 'no', nested: {}, zzz: 1 })).toEqual([
      '$.a required',
      '$["b c"] type',
      '$.nested.x required',
      '$.zzz additionalProperties',
    ]);
    expect(paths({ type: 'object', additionalProperties: { type: 'number' } }, { k: 'v' })).toEqual(['$.k type']);
    expect(paths({ type: 'object', properties: { a: { type: 'string' } } }, { other: 1 })).toEqual([]);
  });

  it('does not treat inherited names as declared properties', () => {
    expect(
      paths({ type: 'object', properties: {}, additionalProperties: false }, JSON.parse('{"toString":1}')),
    ).toEqual(['$.toString additionalProperties']);
    expect(paths({ type: 'object', required: ['constructor'] }, {})).toEqual(['$.constructor required']);
  });

  it('checks enum and const by JSON equality', () => {
    expect(paths({ enum: ['a', 'b'] }, 'c')).toEqual(['$ enum']);
    expect(paths({ enum: [{ k: [1, 2] }] }, { k: [1, 2] })).toEqual([]);
    expect(paths({ const: null }, null)).toEqual([]);
    expect(paths({ const: null }, 0)).toEqual(['$ const']);
    expect(paths({ const: 'x' }, 'y')).toEqual(['$ const']);
  });

  it('checks items, item counts and uniqueness', () => {
    const schema: JsonSchema = { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1, maxItems: 3 };
    expect(paths(schema, [1, 2])).toEqual([]);
    expect(paths(schema, [])).toEqual(['$ minItems']);
    expect(paths(schema, [1, -1, 'x', 4])).toEqual(['$ maxItems', '$[1] minimum', '$[2] type']);
    expect(paths({ type: 'array', uniqueItems: true }, [1, 2, 1])).toEqual(['$[2] uniqueItems']);
  });

  it('checks numeric bounds', () => {
    expect(paths({ minimum: 1, maximum: 3 }, 0)).toEqual(['$ minimum']);
    expect(paths({ minimum: 1, maximum: 3 }, 4)).toEqual(['$ maximum']);
    expect(paths({ exclusiveMinimum: 1 }, 1)).toEqual(['$ exclusiveMinimum']);
    expect(paths({ exclusiveMaximum: 1 }, 1)).toEqual(['$ exclusiveMaximum']);
    expect(paths({ multipleOf: 0.1 }, 0.3)).toEqual([]);
    expect(paths({ multipleOf: 2 }, 3)).toEqual(['$ multipleOf']);
  });

  it('checks string length in code points and patterns', () => {
    expect(paths({ minLength: 2 }, '😀')).toEqual(['$ minLength']);
    expect(paths({ maxLength: 1 }, '😀')).toEqual([]);
    expect(paths({ pattern: '^[a-z]+$' }, 'abc')).toEqual([]);
    expect(paths({ pattern: '^[a-z]+$' }, 'aBc')).toEqual(['$ pattern']);
    expect(paths({ pattern: '(' }, 'x')).toEqual(['$ patternInvalid']);
  });

  it('checks anyOf, oneOf, allOf and not, keeping what each alternative objected to', () => {
    const anyOf: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 10 }] };
    expect(paths(anyOf, 'x')).toEqual([]);
    expect(paths(anyOf, 12)).toEqual([]);
    const failed = validateJsonSchema(anyOf, 3);
    expect(failed.map((violation) => violation.keyword)).toEqual(['anyOf']);
    expect(failed[0]?.alternatives?.map((list) => list.map((violation) => violation.keyword))).toEqual([
      ['type'],
      ['minimum'],
    ]);
    const oneOf: JsonSchema = { oneOf: [{ type: 'number' }, { type: 'integer' }] };
    expect(paths(oneOf, 1.5)).toEqual([]);
    expect(paths(oneOf, 1)).toEqual(['$ oneOfMany']);
    expect(paths(oneOf, 'x')).toEqual(['$ oneOf']);
    expect(paths({ allOf: [{ minimum: 1 }, { maximum: 2 }] }, 3)).toEqual(['$ maximum']);
    expect(paths({ not: { type: 'string' } }, 'x')).toEqual(['$ not']);
  });

  it('resolves local $ref and reports a missing one', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { node: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' }, v: { type: 'number' } } } },
    };
    expect(paths(schema, { node: { v: 1, next: { v: 2, next: { v: 'x' } } } })).toEqual(['$.node.next.next.v type']);
    expect(paths({ $ref: '#/$defs/missing' }, 1)).toEqual(['$ $ref']);
    expect(paths({ $ref: '#' }, 1)).toEqual(['$ depth']);
  });

  it('accepts every value under the empty schema and ignores annotation keywords', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(validateJsonSchema({ description: 'anything', format: 'uri', default: 1 }, value)).toEqual([]);
      }),
    );
  });

  it('never throws, whatever the value', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'array', items: { anyOf: [{ type: 'string', pattern: '^x' }, { type: 'number' }] } } },
      required: ['a'],
      additionalProperties: false,
    };
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(Array.isArray(validateJsonSchema(schema, value))).toBe(true);
      }),
    );
  });

  it('string lengths are code points, lone surrogates included, counted without spreading the string', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.nat(12), fc.nat(12), (pieces, low, high) => {
        const value = pieces.join('');
        const length = [...value].length;
        const expected = [
          ...(length < low ? [{ path: '$', keyword: 'minLength', params: { limit: low, received: length } }] : []),
          ...(length > high ? [{ path: '$', keyword: 'maxLength', params: { limit: high, received: length } }] : []),
        ];
        expect(validateJsonSchema({ type: 'string', minLength: low, maxLength: high }, value)).toEqual(expected);
      }),
    );
  });

  it('a hole in an array is skipped as before, and nested values are checked at their paths', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    const sparse = [1, , 'x'];
    expect(paths({ type: 'array', items: { type: 'number' } }, sparse)).toEqual(['$[2] type']);
    expect(
      paths(
        { type: 'object', properties: { list: { type: 'array', items: { type: 'string', nullable: true } } } },
        { list: ['a', null, 3] },
      ),
    ).toEqual(['$.list[2] type']);
  });
});
