// createPling for Vue 3: the shared core (one page, one lazily created runtime, one locale) plus the page shortcuts,
// and a Vue plugin in the same object, so `app.use(pling)` makes it available to usePling() and every AgentDock.
import type { RuntimeEvent } from '@plingjs/agent';
import {
  type ActionDefinition,
  createPlingCore,
  type PlingCore,
  type PlingOptions,
  type StateGetter,
} from '@plingjs/core';
import type { App } from 'vue';
import { PLING_KEY } from './pling-key.js';

export interface Pling extends PlingCore {
  /** Declares an action on the page (validated); returns the remover. */
  register<Args extends Record<string, unknown> = Record<string, unknown>>(action: ActionDefinition<Args>): () => void;
  /** Removes the action with this id; whether one was removed. */
  unregister(id: string): boolean;
  /** Adds a named entry to the page snapshot, read at every turn; returns the remover. */
  state(name: string, getter: StateGetter): () => void;
  /** Every runtime event (session events of every session, and text deltas); returns the remover. */
  onSessionEvent(listener: (event: RuntimeEvent) => void): () => void;
  /** The Vue plugin: `app.use(pling)` provides it under PLING_KEY and as `this.$pling`. */
  install(app: App): void;
}

export function createPling(options: PlingOptions = {}): Pling {
  const core = createPlingCore(options);
  const pling: Pling = {
    page: core.page,
    locale: core.locale,
    get started() {
      return core.started;
    },
    runtime: (overrides) => core.runtime(overrides),
    session: (id) => core.session(id),
    onEvent: (listener) => core.onEvent(listener),
    onSessionEvent: (listener) => core.onEvent(listener),
    clear: (sessionId) => core.clear(sessionId),
    dispose: () => core.dispose(),
    register: (action) => core.page.register(action),
    unregister: (id) => core.page.unregister(id),
    state: (name, getter) => core.page.state(name, getter),
    install(app) {
      app.provide(PLING_KEY, pling);
      app.config.globalProperties.$pling = pling;
    },
  };
  return pling;
}

declare module 'vue' {
  interface ComponentCustomProperties {
    /** The Pling instance installed with `app.use(pling)`. */
    $pling: Pling;
  }
}
