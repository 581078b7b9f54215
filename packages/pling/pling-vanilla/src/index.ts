// @plingjs/vanilla: Pling for plain JavaScript pages — createPling, onSessionEvent for hosts that render their
// own UI, and the framework-free AgentDock (pling.dock()), which @plingjs/vue2 shares.
export type { AgentConfig, RuntimeEvent, SessionEvent } from '@plingjs/agent';
export {
  type Action,
  type ActionContext,
  type ActionDefinition,
  DOCK_CSS,
  DOCK_STYLE_ATTRIBUTE,
  type DockPlacement,
  type DockState,
  defineAction,
  ensureDockStyles,
  type PlingOptions,
  sensitive,
} from '@plingjs/core';
export { createPling, type DockHandle, type DockOptions, type Pling } from './create-pling.js';
export type { DockController } from './dock-controller.js';
export { createDockView, type DockView } from './dock-view.js';
export { type MountDockOptions, type MountedDock, mountDock } from './mount-dock.js';
