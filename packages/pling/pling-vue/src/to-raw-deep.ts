// Page state often comes straight from Vue's reactive data, i.e. proxies. The snapshot reads them fine, but a
// `sensitive()` value behind a proxy cannot be revealed (its value is a private field, which proxies do not
// forward), so page state is handed to Pling with every proxy replaced by its raw target.
import { isProxy, toRaw } from 'vue';

export function toRawDeep<T>(value: T): T {
  return copy(value, new Map()) as T;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  const raw = isProxy(value) ? toRaw(value) : value;
  if (typeof raw !== 'object' || raw === null) return raw;
  const done = seen.get(raw);
  if (done !== undefined) return done;
  if (Array.isArray(raw)) {
    const result: unknown[] = [];
    seen.set(raw, result);
    for (const item of raw) result.push(copy(item, seen));
    return result;
  }
  const prototype = Object.getPrototypeOf(raw);
  if (prototype !== Object.prototype && prototype !== null) return raw; // class instances (Sensitive, Date) as they are
  const result: Record<string, unknown> = {};
  seen.set(raw, result);
  for (const [key, item] of Object.entries(raw)) result[key] = copy(item, seen);
  return result;
}
