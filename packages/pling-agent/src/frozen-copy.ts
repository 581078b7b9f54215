// A deep, frozen copy of plain data (objects and arrays; other objects are kept as they are), for the views a
// hook receives: a hook can read the call's arguments and result but cannot change what the handler or the
// model gets by mutating them.

export function frozenCopy<T>(value: T): T {
  const path = new Set<object>();
  const walk = (current: unknown): unknown => {
    if (typeof current !== 'object' || current === null) return current;
    if (!Array.isArray(current) && !isPlainObject(current)) return current;
    if (path.has(current)) return '[circular]';
    path.add(current);
    const copy = Array.isArray(current)
      ? current.map(walk)
      : Object.fromEntries(Object.entries(current).map(([key, item]) => [key, walk(item)]));
    path.delete(current);
    return Object.freeze(copy);
  };
  return walk(value) as T;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
