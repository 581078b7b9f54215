// One connection per key (a database file, a database URL) however many plugins open it: the first opens it, the
// others share it, the last to give it back closes it.

export interface SharedLease<T> {
  resource: T;
  /** Gives this reference back (again: nothing); the resource to close when it was the last one, else undefined. */
  release(): T | undefined;
}

/** `open(key)` creates the resource for a key none holds open; the lease's release says when to close it. */
export function sharedByKey<T extends { readonly isOpen: boolean }>(
  create: (key: string) => T,
): (key: string) => SharedLease<T> {
  const open = new Map<string, { resource: T; references: number }>();
  return (key) => {
    let shared = open.get(key);
    if (!shared?.resource.isOpen) {
      shared = { resource: create(key), references: 0 };
      open.set(key, shared);
    }
    shared.references++;
    const current = shared;
    let released = false;
    return {
      resource: current.resource,
      release() {
        if (released) return undefined;
        released = true;
        current.references--;
        if (current.references > 0) return undefined;
        if (open.get(key) === current) open.delete(key);
        return current.resource;
      },
    };
  };
}
