// A small schema language for plugin config sections: validation with defaults filled in, issues that name the
// field, what was expected and what was received, and descriptions used to generate the configuration reference.

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
  abstract typeName(): string;
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

  validate(value: unknown): { value: T; issues: SchemaIssue[] } {
    const issues: SchemaIssue[] = [];
    const result = this.check(value, '', issues);
    return { value: result, issues };
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

  protected fail(path: string, received: unknown, issues: SchemaIssue[], expected = this.typeName()): never | T {
    issues.push({ path, expected, received: describeReceived(received) });
    return undefined as T;
  }
}

export function describeReceived(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array (${truncate(JSON.stringify(value))})`;
  if (typeof value === 'object') return `an object (${truncate(JSON.stringify(value))})`;
  if (typeof value === 'string') return `the string ${truncate(JSON.stringify(value))}`;
  return `${typeof value} ${String(value)}`;
}

function truncate(text: string | undefined, max = 60): string {
  if (text === undefined) return '';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

export class StringSchema extends Schema<string> {
  minLength = 0;
  typeName() {
    return this.minLength > 0 ? 'a non-empty string' : 'a string';
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
  typeName() {
    const parts = [this.whole ? 'an integer' : 'a number'];
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
  typeName() {
    return 'true or false';
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
  typeName() {
    return `one of ${this.values.map((v) => JSON.stringify(v)).join(', ')}`;
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
  typeName() {
    return `an array of ${this.item.typeName()}`;
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
  typeName() {
    return 'an object';
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
          expected: 'no such field (unknown key)',
          received: describeReceived(input[key]),
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
  typeName() {
    return `an object whose values are ${this.value.typeName()}`;
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
  typeName() {
    return 'any value';
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
