// @plingjs/vue2: Pling for Vue 2.7 — createPling with a Vue.use plugin (`this.$pling`), setup() helpers, and the
// native dock shared with @plingjs/vanilla (pling.dock()); like the spec says, no built-in inspector.
export type { AgentConfig, RuntimeEvent, SessionEvent } from '@plingjs/agent';
export {
  type Action,
  type ActionContext,
  type ActionDefinition,
  type DockHandle,
  type DockOptions,
  type DockState,
  defineAction,
  type Pling,
  type PlingOptions,
  sensitive,
} from '@plingjs/vanilla';
export { createPling, type PlingPlugin, type VuePling } from './create-pling.js';
export { useAction, usePageState } from './use-action.js';
