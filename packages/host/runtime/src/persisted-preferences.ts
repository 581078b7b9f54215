// Service preferences changed at run time (preferences:changed) survive restarts in <dataDir>/preferences.json.
// Each stored change remembers the configured value it replaced; when the configuration has changed that value
// since, the configuration wins and the stored change is dropped — the most recent intent wins either way.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PreferenceSnapshot } from '@aalis/core';
import {
  applyChanges,
  type ByPlugin,
  changesFrom,
  flatten,
  GLOBAL_PLUGIN,
  isCurrent,
  keyOf,
  type StoredChange,
  unflatten,
} from './preference-changes.js';
import type { PreferencePersistence } from './preference-persistence.js';

interface StoredFile extends ByPlugin<StoredChange> {
  version: 1;
}

export class PersistedPreferences implements PreferencePersistence {
  private changes = new Map<string, StoredChange>();

  /** `baseline`: the preferences of the configuration (file and environment). */
  constructor(
    private readonly path: string,
    private readonly baseline: PreferenceSnapshot,
  ) {}

  /** The preferences to start with: the baseline with every still-current stored change applied. */
  load(): PreferenceSnapshot {
    const base = flatten(this.baseline);
    const stored = this.read();
    this.changes = new Map([...stored].filter(([key, change]) => isCurrent(base, key, change)));
    return unflatten(applyChanges(base, this.changes));
  }

  /** preferences:changed — stores how `current` differs from the baseline. */
  record(current: PreferenceSnapshot): void {
    this.changes = changesFrom(flatten(this.baseline), flatten(current));
    this.write();
  }

  /** Every change the file holds, current or not (what a move to PostgreSQL imports). */
  storedChanges(): Map<string, StoredChange> {
    return this.read();
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
    for (const [service, change] of Object.entries(stored.global ?? {})) accept(keyOf(GLOBAL_PLUGIN, service), change);
    for (const [plugin, services] of Object.entries(stored.plugins ?? {})) {
      for (const [service, change] of Object.entries(services ?? {})) accept(keyOf(plugin, service), change);
    }
    return entries;
  }

  private write(): void {
    const file: StoredFile = { version: 1, ...unflatten(this.changes) };
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
    renameSync(temporary, this.path); // atomic: never half-written
  }
}
