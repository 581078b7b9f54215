// One walk over plain data (arrays and plain objects) for every copy Pling makes of it: the frozen views hooks
// receive, redaction of a tool's result, the page's values replaced by markers, sensitive wrappers revealed or
// redacted. Each differs only in what it does with a value that is not plain data, so that is the only argument.

/** True for an object literal or `Object.create(null)`: what is copied; class instances are values. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A deep copy of the arrays and plain objects in `value`, with every other value (strings, numbers, class
 * instances …) replaced by what `leaf` returns for it. A cycle becomes the string '[circular]' (copies are sent as
 * JSON). `freeze`: each copied array and object is frozen.
 */
export function mapPlainData(value: unknown, leaf: (value: unknown) => unknown, freeze = false): unknown {
  const path = new Set<object>();
  const walk = (current: unknown): unknown => {
    if (!Array.isArray(current) && !isPlainObject(current)) return leaf(current);
    if (path.has(current)) return '[circular]';
    path.add(current);
    const copy = Array.isArray(current)
      ? current.map(walk)
      : Object.fromEntries(Object.entries(current).map(([key, item]) => [key, walk(item)]));
    path.delete(current);
    return freeze ? Object.freeze(copy) : copy;
  };
  return walk(value);
}
