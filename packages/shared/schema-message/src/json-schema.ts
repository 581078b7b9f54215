// The subset of JSON Schema (draft 2020-12 / OpenAPI flavour) that tool parameters use and validateJsonSchema checks.
// Keywords outside this list (format, description, default, title, examples…) are carried but not enforced.

export type JsonSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  type?: JsonSchemaType | readonly JsonSchemaType[];
  description?: string;
  title?: string;
  default?: unknown;
  examples?: readonly unknown[];
  format?: string;
  enum?: readonly unknown[];
  const?: unknown;
  /** OpenAPI 3.0 style: also accept null. `type: ['string', 'null']` is the JSON Schema way. */
  nullable?: boolean;
  // objects
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  // arrays
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  // numbers
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  // strings (lengths in Unicode code points)
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  // combinators
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  allOf?: readonly JsonSchema[];
  not?: JsonSchema;
  /** Local references only: '#/$defs/<name>' or '#/definitions/<name>'. */
  $ref?: string;
  $defs?: Readonly<Record<string, JsonSchema>>;
  definitions?: Readonly<Record<string, JsonSchema>>;
  [keyword: string]: unknown;
}

/** The parameters schema of a tool: always an object at the top, as model APIs require. */
export interface JsonObjectSchema extends JsonSchema {
  type: 'object';
}
