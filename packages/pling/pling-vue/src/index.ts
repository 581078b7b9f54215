// @plingjs/vue: Pling for Vue 3 — createPling (also the app plugin), the AgentDock component with its bounded
// debug trace, and composables that tie actions, page state and observables to a component's lifetime.

export type { ActionDefinition, DockPlacement, DockState, PlingOptions } from '@plingjs/core';
export { DOCK_CSS, DOCK_STYLE_ATTRIBUTE, DockModel, defineAction, ensureDockStyles, sensitive } from '@plingjs/core';
export { AgentDock } from './agent-dock.js';
export { createPling, type Pling } from './create-pling.js';
export { type DockViewHandlers, type DockViewInput, renderDock } from './dock-view.js';
export { type ModelSettingsHandlers, ModelSettingsPanel, renderModelSettings } from './model-settings.js';
export { PLING_KEY } from './pling-key.js';
export { createTraceNumbering, TRACE_PREVIEW_CHARACTERS, tracePreview } from './trace-view.js';
export { useAction } from './use-action.js';
export { useAgentSession } from './use-agent-session.js';
export { type UseDockOptions, type UseDockResult, useDock } from './use-dock.js';
export { useDockState } from './use-dock-state.js';
export { type ObservableSource, useObservable } from './use-observable.js';
export { usePageState } from './use-page-state.js';
export { usePling } from './use-pling.js';
