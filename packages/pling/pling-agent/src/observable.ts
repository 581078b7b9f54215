// The observable shape shared by sessions, telemetry and trace (TanStack Query style): subscribe() returns an
// unsubscribe, getSnapshot() returns an immutable value that changes identity only when something changed. A
// subscriber that throws is reported once and never breaks the change that notified it.
import { reportListenerError } from './listener-errors.js';
import type { Locale } from './texts.js';

export type Listener = () => void;

export abstract class Observable<Snapshot> {
  private readonly listeners = new Set<Listener>();
  private cachedSnapshot: Snapshot | undefined;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  getSnapshot(): Snapshot {
    this.cachedSnapshot ??= this.buildSnapshot();
    return this.cachedSnapshot;
  }

  protected abstract buildSnapshot(): Snapshot;

  /** Language of the LISTENER_FAILED report; subclasses with a configured locale set it. */
  protected listenerLocale: Locale | undefined;

  /** Drops the cached snapshot and tells every listener. */
  protected changed(): void {
    this.cachedSnapshot = undefined;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        reportListenerError({ listener, error, locale: this.listenerLocale });
      }
    }
  }
}
