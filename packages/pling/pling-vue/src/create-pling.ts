// createPling for Vue 3: the shared core (one page, one lazily created runtime, one locale) plus the page shortcuts,
// and a Vue plugin in the same object, so `app.use(pling)` makes it available to usePling() and every AgentDock.
import { createPlingCore, type PlingCore, type PlingOptions } from '@plingjs/core';
import type { App } from 'vue';
import { PLING_KEY } from './pling-key.js';

export interface Pling extends PlingCore {
  /** The Vue plugin: `app.use(pling)` provides it under PLING_KEY and as `this.$pling`. */
  install(app: App): void;
}

export function createPling(options: PlingOptions = {}): Pling {
  const core = createPlingCore(options);
  // Object.assign keeps the core's own properties (the `started` getter among them) on the same object.
  const pling: Pling = Object.assign(core, {
    install(app: App) {
      app.provide(PLING_KEY, pling);
      app.config.globalProperties.$pling = pling;
    },
  });
  return pling;
}

declare module 'vue' {
  interface ComponentCustomProperties {
    /** The Pling instance installed with `app.use(pling)`. */
    $pling: Pling;
  }
}
