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

/**
 * Reads go through an in-process copy of each (layer, target) loaded on first use; every write goes through this
 * store and updates the copy after its transaction commits. A write by another process on the same database (told
 * by the backend: PostgreSQL's NOTIFY) drops the copy of that target, so the next read loads it again. The copy's
 * values are frozen (frozen-value.ts): reads hand them out without a copy each, and a write stores a frozen copy of
 * its value, so neither a reader nor the writer's own object can change what the next read sees.
 */
export class SettingsStore {
  /** Layer → target → key → value: looked up without building a (layer, target) key per read. */
  private readonly layers = new Map<string, Map<string, Map<string, unknown>>>();

  constructor(private readonly backend: SettingsBackend) {
    backend.onChanged?.((layer, target) => this.layers.get(layer)?.delete(target));
  }

  /** Every stored value on the given layer targets (optionally of one key). */
  async read(targets: readonly { layer: SettingsLayer; target: string }[], key?: string): Promise<StoredValue[]> {
    const values: StoredValue[] = [];
    for (const { layer, target } of targets) {
      // A target already held is read without a promise of its own (a turn reads ~5 keys over ~5 targets).
      const stored = this.heldTarget(layer, target) ?? (await this.valuesOf(layer, target));
      if (key !== undefined) {
        // One key: looked up, not found by walking the target's entries (an [key, value] array each).
        if (stored.has(key)) values.push({ layer, target, key, value: stored.get(key) });
        continue;
      }
      for (const [storedKey, value] of stored) values.push({ layer, target, key: storedKey, value });
    }
    return values;
  }

  /**
   * What `read(targets, key)` gives, now and without a promise, when every target is held; undefined when one is
   * not (then `read` loads it). A turn reads ~6 keys, each over ~4 targets held since the session's first read.
   */
  readHeld(targets: readonly { layer: SettingsLayer; target: string }[], key: string): StoredValue[] | undefined {
    const values: StoredValue[] = [];
    for (const { layer, target } of targets) {
      const stored = this.heldTarget(layer, target);
      if (stored === undefined) return undefined;
      if (stored.has(key)) values.push({ layer, target, key, value: stored.get(key) });
    }
    return values;
  }

  private heldTarget(layer: SettingsLayer, target: string): Map<string, unknown> | undefined {
    return this.layers.get(layer)?.get(target);
  }

  private async valuesOf(layer: SettingsLayer, target: string): Promise<Map<string, unknown>> {
    const cached = this.heldTarget(layer, target);
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
    const raced = this.heldTarget(layer, target);
    if (raced) return raced;
    let targets = this.layers.get(layer);
    if (targets === undefined) {
      targets = new Map();
      this.layers.set(layer, targets);
    }
    targets.set(target, values);
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

  /** Deletes every value of one target and forgets its copy. */
  async removeTarget(layer: SettingsLayer, target: string): Promise<void> {
    await this.backend.removeTarget(layer, target);
    this.layers.get(layer)?.delete(target);
  }
}
