// Service preferences changed at run time, kept in the deployment's PostgreSQL database (aalis_preferences) and
// shared by every process: read before the App is built, written on preferences:changed in one transaction, and
// applied here when another process changed them (NOTIFY), without writing them back. A host's former
// preferences.json is imported once. docs/decisions/shared-preferences.md.
import { hostname } from 'node:os';
import { storageErrors } from '@aalis/api-storage';
import type { Logger, PreferenceSnapshot, Services } from '@aalis/core';
import type { PostgresLease, PostgresPreferences, PreferencesChanged, PreferenceWrite } from '@aalis/postgres';
import { redactUrl } from '@aalis/postgres/postgres-url';
import type { PersistedPreferences } from './persisted-preferences.js';
import {
  applyChanges,
  differingKeys,
  type FlatPreferences,
  flatten,
  GLOBAL_PLUGIN,
  keyOf,
  type StoredChange,
  splitKey,
  unflatten,
} from './preference-changes.js';
import type { PreferencePersistence } from './preference-persistence.js';
import { runtimeErrors } from './runtime-errors.js';

/** How long stop() waits for a write still under way (a database that stopped answering must not hold shutdown). */
const CLOSE_WAIT_MS = 5000;

export interface OpenSharedPreferences {
  /** The postgres:// URL of `database`. */
  url: string;
  /** The preferences of the configuration (file and environment). */
  baseline: PreferenceSnapshot;
  /** This host's preferences.json: imported once into an empty table. */
  file?: { path: string; preferences: PersistedPreferences };
}

type Note = (logger: Logger) => void;

export class SharedPreferences implements PreferencePersistence {
  /** The preferences to build the App with. */
  readonly initial: PreferenceSnapshot;
  /** The App's preferences as last recorded or applied: what the next preferences:changed is compared with. */
  private last: FlatPreferences;
  /** Keys with a write of this process queued: a read of other processes' changes leaves them alone. */
  private readonly pending = new Map<string, number>();
  /** Writes and reads one after the other, so a read never overtakes this process's own write. */
  private queue: Promise<void> = Promise.resolve();
  private applying = false;
  private host: { services: Services; logger: Logger } | undefined;
  /** Other processes changed something before the App was ready: read everything once attached. */
  private missed = false;
  private readonly notes: Note[];

  private constructor(
    private readonly lease: PostgresLease,
    private readonly store: PostgresPreferences,
    private readonly baseline: FlatPreferences,
    stored: ReadonlyMap<string, StoredChange>,
    notes: Note[],
  ) {
    this.last = applyChanges(baseline, stored);
    this.initial = unflatten(this.last);
    this.notes = notes;
  }

  /**
   * Connects (through the pool the storage plugin shares), migrates, imports the file once, reads the changes and
   * starts listening. A database that cannot be used throws AALIS_STORAGE_DATABASE_UNREACHABLE, as the storage
   * plugin's start does.
   */
  static async open(options: OpenSharedPreferences): Promise<SharedPreferences> {
    // The pg driver is loaded only for a PostgreSQL database.
    const { openPostgres, PostgresPreferences } = await import('@aalis/postgres');
    const lease = openPostgres(options.url);
    try {
      await lease.database.query('SELECT 1');
      const store = await PostgresPreferences.open(lease.database);
      const notes: Note[] = [];
      if (options.file) notes.push(await importFile(store, options.file));
      const shared = new SharedPreferences(lease, store, flatten(options.baseline), await storedChanges(store), notes);
      await store.onChanged((changed) => shared.changedElsewhere(changed));
      return shared;
    } catch (error) {
      await lease.release();
      throw storageErrors.AALIS_STORAGE_DATABASE_UNREACHABLE(
        { url: redactUrl(options.url), reason: error instanceof Error ? error.message : String(error) },
        { cause: error },
      );
    }
  }

  attach(host: { services: Services; logger: Logger }): () => void {
    this.host = host;
    for (const note of this.notes.splice(0)) note(host.logger);
    this.last = flatten(host.services.preferences());
    if (this.missed) this.changedElsewhere('all');
    return () => {
      if (this.host === host) this.host = undefined;
    };
  }

  record(current: PreferenceSnapshot): void {
    const now = flatten(current);
    const keys = differingKeys(this.last, now);
    this.last = now;
    // Applying another process's change: it is in the database already (no write, no loop).
    if (this.applying || keys.length === 0) return;
    const writes: PreferenceWrite[] = keys.map((key) => {
      const { plugin, service } = splitKey(key);
      const over = this.baseline.get(key) ?? null;
      const value = now.get(key) ?? null;
      return value === over ? { plugin, service, remove: true } : { plugin, service, value, over };
    });
    for (const key of keys) this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    this.enqueue(async () => {
      try {
        await this.store.write(writes);
      } catch (error) {
        // The change stays applied here; the log line says so (the reason is the driver's: no credentials in it).
        const reason = error instanceof Error ? error.message : String(error);
        const shown = keys.map((key) => describeKey(key)).join(', ');
        const coded = runtimeErrors.AALIS_RUNTIME_PREFERENCES_NOT_SHARED({ keys: shown, reason });
        this.host?.logger.warn(coded.message, { code: coded.code, keys: shown, reason });
      } finally {
        for (const key of keys) {
          const left = (this.pending.get(key) ?? 1) - 1;
          if (left > 0) this.pending.set(key, left);
          else this.pending.delete(key);
        }
      }
    });
  }

  async close(): Promise<void> {
    this.store.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.queue,
      new Promise((resolve) => {
        timer = setTimeout(resolve, CLOSE_WAIT_MS);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    await this.lease.release();
  }

  /** Another process wrote preferences: read them and apply what differs here. */
  private changedElsewhere(changed: PreferencesChanged): void {
    if (!this.host) {
      this.missed = true;
      return;
    }
    this.missed = false;
    this.enqueue(async () => {
      const host = this.host;
      if (!host) {
        this.missed = true;
        return;
      }
      let stored: Map<string, StoredChange>;
      try {
        stored = await storedChanges(this.store);
      } catch (error) {
        host.logger.warn('could not read the service preferences another process changed; they apply here later', {
          reason: error instanceof Error ? error.message : String(error),
        });
        this.missed = true;
        return;
      }
      const wanted = applyChanges(this.baseline, stored);
      const current = flatten(host.services.preferences());
      const keys =
        changed === 'all'
          ? differingKeys(current, wanted)
          : changed.map(({ plugin, service }) => keyOf(plugin, service));
      this.applying = true;
      try {
        for (const key of keys) {
          if (this.pending.has(key) || current.get(key) === wanted.get(key)) continue;
          const { plugin, service } = splitKey(key);
          if (plugin === GLOBAL_PLUGIN) host.services.setGlobalPreference(service, wanted.get(key));
          else host.services.setPluginPreference(plugin, service, wanted.get(key));
        }
      } finally {
        this.applying = false;
      }
    });
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task, task);
  }
}

/** The changes the database holds, by key (see keyOf). */
async function storedChanges(store: PostgresPreferences): Promise<Map<string, StoredChange>> {
  return new Map((await store.read()).map((row) => [keyOf(row.plugin, row.service), row]));
}

function describeKey(key: string): string {
  const { plugin, service } = splitKey(key);
  return plugin === GLOBAL_PLUGIN ? service : `${plugin}: ${service}`;
}

/** Imports the file's changes when the database has none yet; the returned note logs what happened. */
async function importFile(store: PostgresPreferences, file: NonNullable<OpenSharedPreferences['file']>): Promise<Note> {
  const changes = file.preferences.storedChanges();
  if (changes.size === 0) return () => {};
  const rows = [...changes].map(([key, change]) => ({ ...splitKey(key), ...change }));
  const imported = await store.importOnce(`${hostname()}:${file.path}`, rows);
  return (logger) =>
    imported
      ? logger.info(
          `imported ${rows.length} run-time service preference change(s) from ${file.path} into the database; the file is no longer read`,
          { file: file.path, changes: rows.length },
        )
      : logger.info(
          `${file.path} was not imported: the database already holds the deployment's service preferences (the file is no longer read)`,
          { file: file.path },
        );
}
