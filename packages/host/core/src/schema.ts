// A small schema language for plugin config sections: validation with defaults filled in, issues that name the
// field, what was expected and what was received (in English, or in the reader's locale when asked), and
// descriptions used to generate the configuration reference.
import type { Locale } from './i18n.js';
import { phrase } from './schema-texts.js';

export interface SchemaIssue {
  /** Dotted path of the field inside the section ('' for the section itself). */
  path: string;
  expected: string;
  received: string;
}

export interface SchemaMeta {
  description?: string;
  /** How a settings UI should render a string: 'textarea' for long texts. */
  widget?: 'textarea' | 'password';
  hasDefault: boolean;
  defaultValue?: unknown;
  optional: boolean;
}

/** A JSON-compatible description of a schema, for docs and UIs. */
export interface SchemaDescription {
  type: string;
  description?: string;
  /** How a settings form renders the value ('password': a secret, masked and never sent back in clear). */
  widget?: 'textarea' | 'password';
  default?: unknown;
  optional?: boolean;
  values?: readonly unknown[];
  min?: number;
  max?: number;
  integer?: boolean;
  items?: SchemaDescription;
  fields?: Record<string, SchemaDescription>;
}

export abstract class Schema<T> {
  /** Phantom for type inference. */
  declare readonly __output: T;
  meta: SchemaMeta = { hasDefault: false, optional: false };

  protected abstract checkValue(value: unknown, path: string, issues: SchemaIssue[]): T;
  /** What a valid value is, as a phrase ("an integer ≥ 1"), in English unless a locale is given. */
  abstract typeName(locale?: Locale): string;
  protected abstract describeSelf(): SchemaDescription;

  /** Validates a value, filling in defaults. Issues are appended; the returned value is meaningful only without issues. */
  check(value: unknown, path: string, issues: SchemaIssue[]): T {
    if (value === undefined) {
      if (this.meta.hasDefault) return structuredClone(this.meta.defaultValue) as T;
      if (this.meta.optional) return undefined as T;
      return this.checkValue(value, path, issues);
    }
    return this.checkValue(value, path, issues);
  }

  /** Validates a value (see check); the issues' expected and received are worded in `locale` (default English). */
  validate(value: unknown, locale: Locale = 'en'): { value: T; issues: SchemaIssue[] } {
    const issues: SchemaIssue[] = [];
    const outer = wording;
    wording = locale;
    try {
      const result = this.check(value, '', issues);
      return { value: result, issues };
    } finally {
      wording = outer;
    }
  }

  default(value: T): this {
    const copy = this.clone();
    copy.meta = { ...copy.meta, hasDefault: true, defaultValue: value };
    return copy;
  }

  optional(): Schema<T | undefined> {
    const copy = this.clone();
    copy.meta = { ...copy.meta, optional: true };
    return copy;
  }

  describe(description: string): this {
    const copy = this.clone();
    copy.meta = { ...copy.meta, description };
    return copy;
  }

  widget(widget: 'textarea' | 'password'): this {
    const copy = this.clone();
    copy.meta = { ...copy.meta, widget };
    return copy;
  }

  toJSON(): SchemaDescription {
    const description = this.describeSelf();
    if (this.meta.description) description.description = this.meta.description;
    if (this.meta.widget) description.widget = this.meta.widget;
    if (this.meta.hasDefault) description.default = this.meta.defaultValue;
    if (this.meta.optional) description.optional = true;
    return description;
  }

  protected clone(): this {
    const copy = Object.create(Object.getPrototypeOf(this)) as this;
    Object.assign(copy, this);
    copy.meta = { ...this.meta };
    return copy;
  }

  protected fail(path: string, received: unknown, issues: SchemaIssue[]): never | T {
    issues.push({ path, expected: this.typeName(wording), received: describeReceived(received, wording) });
    return undefined as T;
  }
}

/**
 * The locale the running validate() words its issues in. Validation is synchronous, so one module-level value set
 * and restored around it is enough (a check() called on its own words them in English).
 */
let wording: Locale = 'en';

/** What a value is, for an issue's "received" ("the string \"x\"", "number 5"), in English unless a locale is given. */
export function describeReceived(value: unknown, locale: Locale = 'en'): string {
  const say = (key: string, params?: Record<string, string>) => phrase(key, locale, params);
  if (value === undefined) return say('received.nothing');
  if (value === null) return 'null';
  if (Array.isArray(value)) return say('received.array', { json: truncate(JSON.stringify(value)) });
  if (typeof value === 'object') return say('received.object', { json: truncate(JSON.stringify(value)) });
  if (typeof value === 'string') return say('received.string', { json: truncate(JSON.stringify(value)) });
  if (typeof value === 'number' || typeof value === 'boolean') {
    return say(`received.${typeof value}`, { value: String(value) });
  }
  return `${typeof value} ${String(value)}`;
}

function truncate(text: string | undefined, max = 60): string {
  if (text === undefined) return '';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

export class StringSchema extends Schema<string> {
  minLength = 0;
  typeName(locale: Locale = 'en') {
    return phrase(this.minLength > 0 ? 'nonEmptyString' : 'string', locale);
  }
  protected checkValue(value: unknown, path: string, issues: SchemaIssue[]) {
    if (typeof value !== 'string' || value.length < this.minLength) return this.fail(path, value, issues);
    return value;
  }
  nonEmpty(): this {
    const copy = this.clone();
    copy.minLength = 1;
    return copy;
  }
  protected describeSelf(): SchemaDescription {
    return { type: 'string' };
  }
}

export class NumberSchema extends Schema<number> {
  minimum: number | undefined;
  maximum: number | undefined;
  whole = false;
  typeName(locale: Locale = 'en') {
    const parts = [phrase(this.whole ? 'integer' : 'number', locale)];
    if (this.minimum !== undefined) parts.push(`≥ ${this.minimum}`);
    if (this.maximum !== undefined) parts.push(`≤ ${this.maximum}`);
    return parts.join(' ');
  }
  protected checkValue(value: unknown, path: string, issues: SchemaIssue[]) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.fail(path, value, issues);
    if (this.whole && !Number.isInteger(value)) return this.fail(path, value, issues);
    if (this.minimum !== undefined && value < this.minimum) return this.fail(path, value, issues);
    if (this.maximum !== undefined && value > this.maximum) return this.fail(path, value, issues);
    return value;
  }
  min(minimum: number): this {
    const copy = this.clone();
    copy.minimum = minimum;
    return copy;
  }
  max(maximum: number): this {
    const copy = this.clone();
    copy.maximum = maximum;
    return copy;
  }
  integer(): this {
    const copy = this.clone();
    copy.whole = true;
    return copy;
  }
  protected describeSelf(): SchemaDescription {
    return { type: 'number', min: this.minimum, max: this.maximum, integer: this.whole || undefined };
  }
}

export class BooleanSchema extends Schema<boolean> {
  typeName(locale: Locale = 'en') {
    return phrase('boolean', locale);
  }
  protected checkValue(value: unknown, path: string, issues: SchemaIssue[]) {
    if (typeof value !== 'boolean') return this.fail(path, value, issues);
    return value;
  }
  protected describeSelf(): SchemaDescription {
    return { type: 'boolean' };
  }
}

export class EnumSchema<V extends string | number> extends Schema<V> {
  constructor(readonly values: readonly V[]) {
    super();
  }
  typeName(locale: Locale = 'en') {
    return phrase('oneOf', locale, { values: this.values.map((v) => JSON.stringify(v)).join(', ') });
  }
  protected checkValue(value: unknown, path: string, issues: SchemaIssue[]) {
    if (!this.values.includes(value as V)) return this.fail(path, value, issues);
    return value as V;
  }
  protected describeSelf(): SchemaDescription {
    return { type: 'enum', values: this.values };
  }
}

export class ArraySchema<T> extends Schema<T[]> {
  constructor(readonly item: Schema<T>) {
    super();
  }
  typeName(locale: Locale = 'en') {
    return phrase('arrayOf', locale, { item: this.item.typeName(locale) });
  }
  protected checkValue(value: unknown, path: string, issues: SchemaIssue[]) {
    if (!Array.isArray(value)) return this.fail(path, value, issues);
    return value.map((entry, index) => this.item.check(entry, join(path, index), issues));
  }
  protected describeSelf(): SchemaDescription {
    return { type: 'array', items: this.item.toJSON() };
  }
}

export type Shape = Record<string, Schema<unknown>>;
export type ObjectOutput<S extends Shape> = { [K in keyof S]: S[K]['__output'] };

export class ObjectSchema<S extends Shape> extends Schema<ObjectOutput<S>> {
  allowUnknown = false;
  constructor(readonly shape: S) {
    super();
    // An object whose every field has a default (or is optional) defaults to an empty section.
    if (Object.values(shape).every((field) => field.meta.hasDefault || field.meta.optional)) {
      this.meta = { ...this.meta, hasDefault: true, defaultValue: {} };
    }
  }
  typeName(locale: Locale = 'en') {
    return phrase('object', locale);
  }
  override check(value: unknown, path: string, issues: SchemaIssue[]): ObjectOutput<S> {
    if (value === undefined && this.meta.hasDefault) return this.checkValue(this.meta.defaultValue ?? {}, path, issues);
    return super.check(value, path, issues);
  }
  protected checkValue(value: unknown, path: string, issues: SchemaIssue[]) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.fail(path, value, issues);
    const input = value as Record<string, unknown>;
    const output: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(this.shape)) {
      const checked = field.check(input[key], join(path, key), issues);
      if (checked !== undefined) output[key] = checked;
    }
    for (const key of Object.keys(input)) {
      if (key in this.shape) continue;
      if (this.allowUnknown) output[key] = input[key];
      else
        issues.push({
          path: join(path, key),
          expected: phrase('unknownKey', wording),
          received: describeReceived(input[key], wording),
        });
    }
    return output as ObjectOutput<S>;
  }
  /** Keeps keys not in the shape instead of reporting them. */
  passthrough(): this {
    const copy = this.clone();
    copy.allowUnknown = true;
    return copy;
  }
  protected describeSelf(): SchemaDescription {
    return {
      type: 'object',
      fields: Object.fromEntries(Object.entries(this.shape).map(([key, field]) => [key, field.toJSON()])),
    };
  }
}

export class RecordSchema<T> extends Schema<Record<string, T>> {
  constructor(readonly value: Schema<T>) {
    super();
  }
  typeName(locale: Locale = 'en') {
    return phrase('recordOf', locale, { value: this.value.typeName(locale) });
  }
  protected checkValue(value: unknown, path: string, issues: SchemaIssue[]) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.fail(path, value, issues);
    const output: Record<string, T> = {};
    for (const [key, entry] of Object.entries(value)) output[key] = this.value.check(entry, join(path, key), issues);
    return output;
  }
  protected describeSelf(): SchemaDescription {
    return { type: 'record', items: this.value.toJSON() };
  }
}

export class UnknownSchema extends Schema<unknown> {
  typeName(locale: Locale = 'en') {
    return phrase('any', locale);
  }
  protected checkValue(value: unknown) {
    return value;
  }
  protected describeSelf(): SchemaDescription {
    return { type: 'unknown' };
  }
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

/** Schema builders: `s.object({ name: s.string().default('') })`. */
export const s = {
  string: () => new StringSchema(),
  number: () => new NumberSchema(),
  boolean: () => new BooleanSchema(),
  enum: <const V extends string | number>(values: readonly V[]) => new EnumSchema<V>(values),
  array: <T>(item: Schema<T>) => new ArraySchema<T>(item),
  object: <S extends Shape>(shape: S) => new ObjectSchema<S>(shape),
  record: <T>(value: Schema<T>) => new RecordSchema<T>(value),
  unknown: () => new UnknownSchema(),
};
