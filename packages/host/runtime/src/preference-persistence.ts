// Where the host keeps service preferences changed at run time: preferences.json beside a SQLite database, or the
// deployment's PostgreSQL database (shared by every process). The host plugin talks to either through this.
import type { Logger, PreferenceSnapshot, Services } from '@aalis/core';

export interface PreferencePersistence {
  /** preferences:changed: keep how `current` differs from the configuration. */
  record(current: PreferenceSnapshot): void;
  /**
   * The host plugin is active: follow changes made by other processes (applied through `services`), and log what
   * the start did. Returns the detacher.
   */
  attach?(host: { services: Services; logger: Logger }): () => void;
  /** After the App stopped: writes still under way finish, connections are given back. */
  close?(): Promise<void>;
}
