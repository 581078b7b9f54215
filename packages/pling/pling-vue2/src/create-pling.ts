// createPling for Vue 2.7: the vanilla Pling (page helpers, onSessionEvent and the shared native dock) plus
// `plugin`, which `Vue.use(pling.plugin)` installs as `this.$pling` in every component.
import type { PlingOptions } from '@plingjs/core';
import { createPling as createVanillaPling, type Pling } from '@plingjs/vanilla';
import type { VueConstructor } from 'vue';

export interface PlingPlugin {
  /** Sets `Vue.prototype.$pling`; installing it again (another Vue copy) does the same. */
  install(Vue: VueConstructor): void;
}

export interface VuePling extends Pling {
  /** `Vue.use(pling.plugin)`: every component gets this object as `this.$pling`. */
  readonly plugin: PlingPlugin;
}

declare module 'vue/types/vue' {
  interface Vue {
    /** The pling whose plugin was installed with `Vue.use(pling.plugin)`. */
    $pling: VuePling;
  }
}

export function createPling(options: PlingOptions = {}): VuePling {
  const pling = createVanillaPling(options);
  // The same object, extended: `this.$pling` is the very pling the page created.
  return Object.assign(pling, {
    plugin: {
      install(Vue: VueConstructor) {
        Vue.prototype.$pling = pling;
      },
    },
  });
}
