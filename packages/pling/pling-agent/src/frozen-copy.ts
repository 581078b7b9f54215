// A deep, frozen copy of plain data (objects and arrays; other objects are kept as they are), for the views a
// hook receives: a hook can read the call's arguments and result but cannot change what the handler or the
// model gets by mutating them.
import { mapPlainData } from './plain-data.js';

const same = (value: unknown): unknown => value;

export function frozenCopy<T>(value: T): T {
  return mapPlainData(value, same, true) as T;
}
