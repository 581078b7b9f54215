// What a stored run-time preference change means, for every place changes are kept (preferences.json, PostgreSQL):
// each change remembers the configured value it replaced; while the configuration still says that value the change
// applies, once the configuration says something else the configuration wins — the most recent intent wins.
import type { PreferenceSnapshot } from '@aalis/core';

/** One changed preference: the value set at run time (null = removed) and the configured value it replaced. */
export interface StoredChange {
  value: string | null;
  over: string | null;
}

/** `plugin` '' is the global preference of `service`. */
export interface PreferenceKey {
  plugin: string;
  service: string;
}

/** Global entries by service and plugin entries by plugin and service, as a PreferenceSnapshot holds them. */
export interface ByPlugin<T> {
  global: Record<string, T>;
  plugins: Record<string, Record<string, T>>;
}

/** Preferences by key (see keyOf). */
export type FlatPreferences = Map<string, string>;

export const GLOBAL_PLUGIN = '';

export const keyOf = (plugin: string, service: string): string => `${plugin}\u0000${service}`;

export function splitKey(key: string): PreferenceKey {
  const [plugin, service] = key.split('\u0000') as [string, string];
  return { plugin, service };
}

export function flatten(snapshot: PreferenceSnapshot): FlatPreferences {
  const flat: FlatPreferences = new Map();
  for (const [service, value] of Object.entries(snapshot.global)) flat.set(keyOf(GLOBAL_PLUGIN, service), value);
  for (const [plugin, entries] of Object.entries(snapshot.plugins)) {
    for (const [service, value] of Object.entries(entries)) flat.set(keyOf(plugin, service), value);
  }
  return flat;
}

/** Entries by key (see keyOf) back into global and per-plugin records: preferences, or the changes stored of them. */
export function unflatten<T = string>(flat: ReadonlyMap<string, T>): ByPlugin<T> {
  const snapshot: ByPlugin<T> = { global: {}, plugins: {} };
  for (const [key, value] of flat) {
    const { plugin, service } = splitKey(key);
    if (plugin === GLOBAL_PLUGIN) {
      snapshot.global[service] = value;
    } else {
      snapshot.plugins[plugin] ??= {};
      snapshot.plugins[plugin][service] = value;
    }
  }
  return snapshot;
}

/** Whether a stored change still applies: the configuration still says the value it replaced. */
export function isCurrent(baseline: FlatPreferences, key: string, change: StoredChange): boolean {
  return (baseline.get(key) ?? null) === change.over;
}

/** The baseline with every still-current change applied. */
export function applyChanges(baseline: FlatPreferences, changes: ReadonlyMap<string, StoredChange>): FlatPreferences {
  const effective = new Map(baseline);
  for (const [key, change] of changes) {
    if (!isCurrent(baseline, key, change)) continue;
    if (change.value === null) effective.delete(key);
    else effective.set(key, change.value);
  }
  return effective;
}

/** How `current` differs from the baseline, as stored changes. */
export function changesFrom(baseline: FlatPreferences, current: FlatPreferences): Map<string, StoredChange> {
  const changes = new Map<string, StoredChange>();
  for (const key of new Set([...baseline.keys(), ...current.keys()])) {
    const configured = baseline.get(key) ?? null;
    const value = current.get(key) ?? null;
    if (configured !== value) changes.set(key, { value, over: configured });
  }
  return changes;
}

/** The keys whose values differ between two sets of preferences. */
export function differingKeys(a: FlatPreferences, b: FlatPreferences): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((key) => a.get(key) !== b.get(key));
}
