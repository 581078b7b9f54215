// A small, dependency-free JSON Schema validator (tool arguments, page-action arguments, structured output). It
// reports every violation with the path of the offending value, so a model can repair all of its mistakes in one
// retry. See json-schema.ts for the keywords and describe-violations.ts for the rendering.
import { isPlainObject } from './is-plain-object.js';
import type { JsonSchema, JsonSchemaType } from './json-schema.js';

export interface SchemaViolation {
  /** Where the value is: `$` is the arguments object, `$.items[0].name` a nested value. */
  path: string;
  /** The keyword that failed ('type', 'required', 'enum', …). */
  keyword: string;
  /** Values for the violation's message (see describeViolations). */
  params: Record<string, string | number>;
  /** anyOf / oneOf: what each alternative objected to, in order. */
  alternatives?: SchemaViolation[][];
}

const MAX_DEPTH = 64;

/** Checks `value` against `schema`; returns the violations (empty when valid). Never throws. */
export function validateJsonSchema(schema: JsonSchema, value: unknown): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  check({ schema, value, path: '$', root: schema, depth: 0, out: violations });
  return violations;
}

interface Step {
  schema: JsonSchema;
  value: unknown;
  path: string;
  root: JsonSchema;
  depth: number;
  out: SchemaViolation[];
}

function check(step: Step): void {
  const { schema, value, path, out } = step;
  if (step.depth > MAX_DEPTH) {
    out.push({ path, keyword: 'depth', params: { limit: MAX_DEPTH } });
    return;
  }
  if (schema.$ref !== undefined) {
    const target = resolveRef(step.root, schema.$ref);
    if (!target) out.push({ path, keyword: '$ref', params: { ref: schema.$ref } });
    else check(inner(step, target, step.value, path));
  }
  if (!checkType(schema, value, path, out)) return; // the other keywords would only repeat the type error
  if (schema.enum !== undefined && !schema.enum.some((allowed) => jsonEqual(allowed, value))) {
    out.push({ path, keyword: 'enum', params: { allowed: schema.enum.map(show).join(', '), received: show(value) } });
  }
  if ('const' in schema && schema.const !== undefined && !jsonEqual(schema.const, value)) {
    out.push({ path, keyword: 'const', params: { expected: show(schema.const), received: show(value) } });
  }
  if (typeof value === 'number') checkNumber(schema, value, path, out);
  else if (typeof value === 'string') checkString(schema, value, path, out);
  else if (Array.isArray(value)) checkArray(step, value);
  else if (isPlainObject(value)) checkObject(step, value);
  checkCombinators(step);
}

/** The step one level down: another schema for this value or a part of it. */
function inner(step: Step, schema: JsonSchema, value: unknown, path: string, out = step.out): Step {
  return { schema, value, path, root: step.root, depth: step.depth + 1, out };
}

function checkType(schema: JsonSchema, value: unknown, path: string, out: SchemaViolation[]): boolean {
  if (schema.type === undefined) return true;
  // One type that matches (most values): no list of the allowed types to build.
  if (!Array.isArray(schema.type) && hasType(value, schema.type as JsonSchemaType)) return true;
  const types: JsonSchemaType[] = Array.isArray(schema.type) ? [...schema.type] : [schema.type as JsonSchemaType];
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  if (types.some((type) => hasType(value, type))) return true;
  out.push({ path, keyword: 'type', params: { expected: types.join(' | '), received: typeName(value) } });
  return false;
}

function hasType(value: unknown, type: JsonSchemaType): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return true; // an unknown type name constrains nothing
  }
}

function checkNumber(schema: JsonSchema, value: number, path: string, out: SchemaViolation[]): void {
  if (schema.minimum !== undefined && value < schema.minimum) {
    out.push({ path, keyword: 'minimum', params: { limit: schema.minimum, received: value } });
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    out.push({ path, keyword: 'maximum', params: { limit: schema.maximum, received: value } });
  }
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) {
    out.push({ path, keyword: 'exclusiveMinimum', params: { limit: schema.exclusiveMinimum, received: value } });
  }
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) {
    out.push({ path, keyword: 'exclusiveMaximum', params: { limit: schema.exclusiveMaximum, received: value } });
  }
  if (schema.multipleOf !== undefined && schema.multipleOf > 0) {
    const quotient = value / schema.multipleOf;
    if (Math.abs(quotient - Math.round(quotient)) > 1e-9) {
      out.push({ path, keyword: 'multipleOf', params: { limit: schema.multipleOf, received: value } });
    }
  }
}

function checkString(schema: JsonSchema, value: string, path: string, out: SchemaViolation[]): void {
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    const length = codePoints(value); // as JSON Schema counts them
    if (schema.minLength !== undefined && length < schema.minLength) {
      out.push({ path, keyword: 'minLength', params: { limit: schema.minLength, received: length } });
    }
    if (schema.maxLength !== undefined && length > schema.maxLength) {
      out.push({ path, keyword: 'maxLength', params: { limit: schema.maxLength, received: length } });
    }
  }
  if (schema.pattern !== undefined) {
    const regex = compilePattern(schema.pattern);
    if (!regex) out.push({ path, keyword: 'patternInvalid', params: { pattern: schema.pattern } });
    else if (!regex.test(value)) out.push({ path, keyword: 'pattern', params: { pattern: schema.pattern } });
  }
}

function checkArray(step: Step, value: unknown[]): void {
  const { schema, path, out } = step;
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    out.push({ path, keyword: 'minItems', params: { limit: schema.minItems, received: value.length } });
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    out.push({ path, keyword: 'maxItems', params: { limit: schema.maxItems, received: value.length } });
  }
  if (schema.uniqueItems === true) {
    for (let later = 1; later < value.length; later++) {
      const earlier = value.slice(0, later).findIndex((item) => jsonEqual(item, value[later]));
      if (earlier >= 0) {
        out.push({ path: `${path}[${later}]`, keyword: 'uniqueItems', params: { index: earlier } });
      }
    }
  }
  if (schema.items !== undefined) {
    const items = schema.items;
    for (let index = 0; index < value.length; index++) {
      if (index in value) check(inner(step, items, value[index], `${path}[${index}]`)); // holes as forEach skips them
    }
  }
}

function checkObject(step: Step, value: Record<string, unknown>): void {
  const { schema, path, out } = step;
  for (const property of schema.required ?? []) {
    if (!Object.hasOwn(value, property) || value[property] === undefined) {
      out.push({ path: childPath(path, property), keyword: 'required', params: { property } });
    }
  }
  const properties = schema.properties ?? {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (propertySchema) {
      if (item !== undefined) {
        check(inner(step, propertySchema, item, childPath(path, key)));
      }
      continue;
    }
    const extra = schema.additionalProperties;
    if (extra === false) {
      const known = Object.keys(properties);
      out.push({
        path: childPath(path, key),
        keyword: 'additionalProperties',
        params: { property: key, known: known.length > 0 ? known.join(', ') : '-' },
      });
    } else if (typeof extra === 'object' && extra !== null) {
      check(inner(step, extra, item, childPath(path, key)));
    }
  }
}

function checkCombinators(step: Step): void {
  const { schema, path, out } = step;
  const tryEach = (alternatives: readonly JsonSchema[]) =>
    alternatives.map((alternative) => {
      const found: SchemaViolation[] = [];
      check(inner(step, alternative, step.value, path, found));
      return found;
    });
  for (const part of schema.allOf ?? []) check(inner(step, part, step.value, path));
  if (schema.anyOf !== undefined && schema.anyOf.length > 0) {
    const results = tryEach(schema.anyOf);
    if (!results.some((found) => found.length === 0)) {
      out.push({ path, keyword: 'anyOf', params: { count: results.length }, alternatives: results });
    }
  }
  if (schema.oneOf !== undefined && schema.oneOf.length > 0) {
    const results = tryEach(schema.oneOf);
    const matched = results.filter((found) => found.length === 0).length;
    if (matched === 0) out.push({ path, keyword: 'oneOf', params: { count: results.length }, alternatives: results });
    else if (matched > 1) out.push({ path, keyword: 'oneOfMany', params: { matched } });
  }
  if (schema.not !== undefined) {
    const found: SchemaViolation[] = [];
    check(inner(step, schema.not, step.value, path, found));
    if (found.length === 0) out.push({ path, keyword: 'not', params: {} });
  }
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === '#') return root;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const table = match[1] === '$defs' ? root.$defs : root.definitions;
  const name = decodeURIComponent(match[2]!).replace(/~1/g, '/').replace(/~0/g, '~');
  return table && Object.hasOwn(table, name) ? table[name] : undefined;
}

const patternCache = new Map<string, RegExp | null>();

function compilePattern(pattern: string): RegExp | undefined {
  if (!patternCache.has(pattern)) {
    let compiled: RegExp | null = null;
    for (const flags of ['u', '']) {
      try {
        compiled = new RegExp(pattern, flags);
        break;
      } catch {
        // try the next flag set; a pattern valid in neither is reported as patternInvalid
      }
    }
    patternCache.set(pattern, compiled);
  }
  return patternCache.get(pattern) ?? undefined;
}

/** Code points of a string, without an array of them. */
function codePoints(value: string): number {
  let count = value.length;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        index++;
      }
    }
  }
  return count;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Equality of JSON values (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => jsonEqual(left[key], right[key]));
}

function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function show(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}
