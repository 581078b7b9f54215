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
}

type AnyListener = (payload: unknown) => void | Promise<void>;

export class EventBus {
  private readonly listeners = new Map<string, Set<AnyListener>>();
  constructor(private readonly onListenerError: (name: string, error: unknown) => void) {}

  on(name: string, listener: AnyListener): Disposer {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    const entry: AnyListener = (payload) => listener(payload);
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  emit(name: string, payload: unknown): void {
    for (const listener of [...(this.listeners.get(name) ?? [])]) {
      try {
        const result = listener(payload);
        if (result instanceof Promise) result.catch((error) => this.onListenerError(name, error));
      } catch (error) {
        this.onListenerError(name, error);
      }
    }
  }

  async emitAsync(name: string, payload: unknown): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const listener of [...(this.listeners.get(name) ?? [])]) {
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
    return this.listeners.get(name)?.size ?? 0;
  }
}
