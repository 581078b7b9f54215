// Typed pub/sub. Event names and payloads are declared by merging into EventMap:
//   declare module '@aalis/core' { interface EventMap { 'session:deleted': { sessionId: string } } }
import type { Disposer } from './descriptor.js';

// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in other packages.
export interface EventMap {}

export type EventName = keyof EventMap & string;
export type EventListener<K extends EventName> = (payload: EventMap[K]) => void | Promise<void>;

export interface Events {
  /** Subscribes; the subscription is owned by the calling plugin and removed when it deactivates. */
  on<K extends EventName>(name: K, listener: EventListener<K>): Disposer;
  /** Calls every listener now; async listeners run on, their failures are logged. */
  emit<K extends EventName>(name: K, payload: EventMap[K]): void;
  /** Calls every listener and waits for all of them; failures are logged, never thrown. */
  emitAsync<K extends EventName>(name: K, payload: EventMap[K]): Promise<void>;
  /**
   * Whether anything listens to this event now, so a hot path can skip building a payload nobody would receive
   * (emitting then changes nothing: listeners are called with what they see when the emit happens).
   */
  listens(name: EventName): boolean;
}

type AnyListener = (payload: unknown) => void | Promise<void>;

export class EventBus {
  /**
   * Copy-on-write: `on` and a disposer replace a name's array, never change it, so an emit walks the array it began
   * with, without copying it per event (a tool turn emits ~40 events): a listener added during an emit is not
   * called by it, one removed during an emit still is, as with the copy taken of a Set before.
   */
  private readonly listeners = new Map<string, readonly AnyListener[]>();
  constructor(private readonly onListenerError: (name: string, error: unknown) => void) {}

  on(name: string, listener: AnyListener): Disposer {
    // One entry per subscription: the same function subscribed twice is called twice and disposed one at a time.
    const entry: AnyListener = (payload) => listener(payload);
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), entry]);
    return () => {
      const current = this.listeners.get(name);
      if (current === undefined || !current.includes(entry)) return;
      const rest = current.filter((candidate) => candidate !== entry);
      if (rest.length === 0) this.listeners.delete(name);
      else this.listeners.set(name, rest);
    };
  }

  emit(name: string, payload: unknown): void {
    const listeners = this.listeners.get(name);
    if (listeners === undefined) return;
    for (let index = 0; index < listeners.length; index++) {
      try {
        const result = listeners[index]!(payload);
        if (result instanceof Promise) result.catch((error) => this.onListenerError(name, error));
      } catch (error) {
        this.onListenerError(name, error);
      }
    }
  }

  async emitAsync(name: string, payload: unknown): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        const result = listener(payload);
        if (result instanceof Promise) pending.push(result.catch((error) => this.onListenerError(name, error)));
      } catch (error) {
        this.onListenerError(name, error);
      }
    }
    await Promise.all(pending);
  }

  listenerCount(name: string): number {
    return this.listeners.get(name)?.length ?? 0;
  }
}
