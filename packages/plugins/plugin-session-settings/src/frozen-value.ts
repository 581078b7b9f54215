// Setting values as the store keeps and hands them out: JSON data frozen all the way down, so every reader can share
// one copy (a structuredClone per value per read was ~14 KB of a tool turn) and none can change it for others.

/** Freezes a JSON value (objects and arrays, recursively) in place and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/** A frozen private copy of a value someone else still holds (a write's value, a field's default). */
export function frozenCopy<T>(value: T): T {
  return typeof value === 'object' && value !== null ? deepFreeze(structuredClone(value)) : value;
}
