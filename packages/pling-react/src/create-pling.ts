// createPling for React: the shared Pling core (one page, one lazily created runtime, one locale) with the page's
// registration methods at the top level, plus a private signal for the moment the runtime is created, so the
// hooks can follow a runtime without creating it (a dock's `config` property must still be able to take part).
import type { AgentRuntime, AgentSession, RuntimeEvent } from '@plingjs/agent';
import { type Action, createPlingCore, type PlingCore, type PlingOptions, type StateGetter } from '@plingjs/core';

export interface Pling extends PlingCore {
  /** Declares an action on the page (`page.register`); returns its remover. In components, prefer `useAction`. */
  register(action: Action): () => void;
  unregister(id: string): boolean;
  /** Names a piece of state the model sees (`page.state`); returns its remover. In components, `usePageState`. */
  state(name: string, getter: StateGetter): () => void;
  /** Every runtime event (session events and text deltas, every session); returns the remover. */
  onSessionEvent(listener: (event: RuntimeEvent) => void): () => void;
}

const startListeners = new WeakMap<Pling, Set<() => void>>();

/** Creates the Pling of an app: pass it to `<PlingProvider pling={…}>`. Throws INVALID_CONFIG for a bad config. */
export function createPling(options: PlingOptions = {}): Pling {
  const core = createPlingCore(options);
  const listeners = new Set<() => void>();
  // Every path that can create the runtime goes through one of these three; tell the hooks when it happened.
  const starting = <Result>(create: () => Result): Result => {
    const before = core.started;
    const result = create();
    if (!before && core.started) for (const listener of [...listeners]) listener();
    return result;
  };
  const pling: Pling = {
    page: core.page,
    locale: core.locale,
    get started() {
      return core.started;
    },
    runtime: (overrides): AgentRuntime => starting(() => core.runtime(overrides)),
    session: (id): AgentSession => starting(() => core.session(id)),
    clear: (sessionId) => starting(() => core.clear(sessionId)),
    onEvent: (listener) => core.onEvent(listener),
    onSessionEvent: (listener) => core.onEvent(listener),
    register: (action) => core.page.register(action),
    unregister: (id) => core.page.unregister(id),
    state: (name, getter) => core.page.state(name, getter),
    dispose: () => core.dispose(),
  };
  startListeners.set(pling, listeners);
  return pling;
}

/** Calls `listener` once the runtime of `pling` has been created; returns the remover. Internal to the hooks. */
export function onRuntimeStart(pling: Pling, listener: () => void): () => void {
  const listeners = startListeners.get(pling);
  if (!listeners) return () => {};
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
