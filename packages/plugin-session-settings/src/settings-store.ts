// Layer values: table `session_settings` (namespace 'session-settings'), one JSON value per (layer, target, key),
// in the storage engine's database (settings-backends.ts: SQLite or PostgreSQL).
import type { SettingsLayer } from '@aalis/api-session-settings';
import { deepFreeze, frozenCopy } from './frozen-value.js';
import type { SettingsBackend } from './settings-backends.js';

export { SETTINGS_MIGRATIONS } from './settings-backends.js';

export interface StoredValue {
  layer: SettingsLayer;
  target: string;
  key: string;
  value: unknown;
}

const idOf = (layer: string, target: string) => `${layer}\u0000${target}`;

/**
 * Reads go through an in-process copy of each (layer, target) loaded on first use; every write goes through this
 * store and updates the copy after its transaction commits. A write by another process on the same database (told
 * by the backend: PostgreSQL's NOTIFY) drops the copy of that target, so the next read loads it again. The copy's
 * values are frozen (frozen-value.ts): reads hand them out without a copy each, and a write stores a frozen copy of
 * its value, so neither a reader nor the writer's own object can change what the next read sees.
 */
export class SettingsStore {
  private readonly targets = new Map<string, Map<string, unknown>>();

  constructor(private readonly backend: SettingsBackend) {
    backend.onChanged?.((layer, target) => this.targets.delete(idOf(layer, target)));
  }

  /** Every stored value on the given layer targets (optionally of one key). */
  async read(targets: readonly { layer: SettingsLayer; target: string }[], key?: string): Promise<StoredValue[]> {
    const values: StoredValue[] = [];
    for (const { layer, target } of targets) {
      // A target already held is read without a promise of its own (a turn reads ~5 keys over ~5 targets).
      const stored = this.targets.get(idOf(layer, target)) ?? (await this.valuesOf(layer, target));
      if (key !== undefined) {
        // One key: looked up, not found by walking the target's entries (an [key, value] array each).
        if (stored.has(key)) values.push({ layer, target, key, value: stored.get(key) });
        continue;
      }
      for (const [storedKey, value] of stored) values.push({ layer, target, key: storedKey, value });
    }
    return values;
  }

  private async valuesOf(layer: SettingsLayer, target: string): Promise<Map<string, unknown>> {
    const id = idOf(layer, target);
    const cached = this.targets.get(id);
    if (cached) return cached;
    const values = new Map<string, unknown>();
    for (const row of await this.backend.load(layer, target)) {
      try {
        values.set(row.key, deepFreeze(JSON.parse(row.value) as unknown));
      } catch {
        // a hand-edited row that is not JSON is ignored, like a value that no longer fits its field
      }
    }
    // Another read may have loaded it meanwhile: keep one copy.
    const raced = this.targets.get(id);
    if (raced) return raced;
    this.targets.set(id, values);
    return values;
  }

  async write({ layer, target, key, value }: StoredValue): Promise<void> {
    await this.backend.upsert(layer, target, key, JSON.stringify(value));
    (await this.valuesOf(layer, target)).set(key, frozenCopy(value));
  }

  /** Deletes one value; returns whether there was one. */
  async remove({ layer, target, key }: Omit<StoredValue, 'value'>): Promise<boolean> {
    const removed = await this.backend.remove(layer, target, key);
    (await this.valuesOf(layer, target)).delete(key);
    return removed;
  }
}
