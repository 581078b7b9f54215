// A tool's parameters as the first-party tools declare them: an object of exactly the named properties.
import type { JsonObjectSchema, JsonSchema } from '@aalis/schema-message';

/** `{ type: 'object', properties, required, additionalProperties: false }`: a call with any other key is refused. */
export function closedParameters(
  properties: Readonly<Record<string, JsonSchema>>,
  required: readonly string[] = [],
): JsonObjectSchema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}
