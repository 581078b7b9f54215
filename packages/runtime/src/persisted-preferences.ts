// Service preferences changed at run time (preferences:changed) survive restarts in <dataDir>/preferences.json.
// Each stored change remembers the configured value it replaced; when the configuration has changed that value
// since, the configuration wins and the stored change is dropped — the most recent intent wins either way.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PreferenceSnapshot } from '@aalis/core';

/** One changed preference: the value set at run time (null = removed) and the configured value it replaced. */
interface StoredChange {
  value: string | null;
  over: string | null;
}

interface StoredFile {
  version: 1;
  global: Record<string, StoredChange>;
  plugins: Record<string, Record<string, StoredChange>>;
}

type Flat = Map<string, string>;
const GLOBAL = '';
const keyOf = (plugin: string, service: string) => `${plugin}\u0000${service}`;

function flatten(snapshot: PreferenceSnapshot): Flat {
  const flat: Flat = new Map();
  for (const [service, value] of Object.entries(snapshot.global)) flat.set(keyOf(GLOBAL, service), value);
  for (const [plugin, entries] of Object.entries(snapshot.plugins)) {
    for (const [service, value] of Object.entries(entries)) flat.set(keyOf(plugin, service), value);
  }
  return flat;
}

function unflatten(flat: Flat): PreferenceSnapshot {
  const snapshot: PreferenceSnapshot = { global: {}, plugins: {} };
  for (const [key, value] of flat) {
    const [plugin, service] = key.split('\u0000') as [string, string];
    if (plugin === GLOBAL) {
      snapshot.global[service] = value;
    } else {
      snapshot.plugins[plugin] ??= {};
      snapshot.plugins[plugin][service] = value;
    }
  }
  return snapshot;
}

export class PersistedPreferences {
  private changes = new Map<string, StoredChange>();

  /** `baseline`: the preferences of the configuration (file and environment). */
  constructor(
    private readonly path: string,
    private readonly baseline: PreferenceSnapshot,
  ) {}

  /** The preferences to start with: the baseline with every still-current stored change applied. */
  load(): PreferenceSnapshot {
    const base = flatten(this.baseline);
    const effective = new Map(base);
    for (const [key, change] of this.read()) {
      if ((base.get(key) ?? null) !== change.over) continue; // the configuration changed since: it wins
      this.changes.set(key, change);
      if (change.value === null) effective.delete(key);
      else effective.set(key, change.value);
    }
    return unflatten(effective);
  }

  /** preferences:changed — stores how `current` differs from the baseline. */
  record(current: PreferenceSnapshot): void {
    const base = flatten(this.baseline);
    const now = flatten(current);
    const changes = new Map<string, StoredChange>();
    for (const key of new Set([...base.keys(), ...now.keys()])) {
      const configured = base.get(key) ?? null;
      const value = now.get(key) ?? null;
      if (configured !== value) changes.set(key, { value, over: configured });
    }
    this.changes = changes;
    this.write();
  }

  private read(): Map<string, StoredChange> {
    const entries = new Map<string, StoredChange>();
    if (!existsSync(this.path)) return entries;
    let stored: Partial<StoredFile>;
    try {
      stored = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<StoredFile>;
    } catch {
      return entries; // unreadable: start from the configuration; the next change rewrites it
    }
    const accept = (key: string, change: unknown) => {
      const candidate = change as Partial<StoredChange> | null;
      if (!candidate || typeof candidate !== 'object') return;
      const valid = (value: unknown) => value === null || typeof value === 'string';
      if (!valid(candidate.value) || !valid(candidate.over)) return;
      entries.set(key, { value: candidate.value as string | null, over: candidate.over as string | null });
    };
    for (const [service, change] of Object.entries(stored.global ?? {})) accept(keyOf(GLOBAL, service), change);
    for (const [plugin, services] of Object.entries(stored.plugins ?? {})) {
      for (const [service, change] of Object.entries(services ?? {})) accept(keyOf(plugin, service), change);
    }
    return entries;
  }

  private write(): void {
    const file: StoredFile = { version: 1, global: {}, plugins: {} };
    for (const [key, change] of this.changes) {
      const [plugin, service] = key.split('\u0000') as [string, string];
      if (plugin === GLOBAL) {
        file.global[service] = change;
      } else {
        file.plugins[plugin] ??= {};
        file.plugins[plugin][service] = change;
      }
    }
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
    renameSync(temporary, this.path); // atomic: never half-written
  }
}
