// What JSON calls an object: not null, not an array. Tool arguments, config sections, schemas and stored metadata
// are read through it.

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
