// A cache that stays bounded however many keys a process meets: Map keeps insertion order, so the first key is the
// one written longest ago.

/** Sets `key` as the newest entry of `map`, then forgets the oldest entries while there are more than `limit`. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= limit) return;
    map.delete(oldest);
  }
}
