// @plingjs/react: Pling for React — createPling, PlingProvider, the AgentDock component and hooks bridging Pling's
// observables (sessions, telemetry, the dock model) with useSyncExternalStore.

export type { ActionDefinition, DockPlacement, PlingOptions } from '@plingjs/core';
export { sensitive } from '@plingjs/core';
export { AgentDock, type AgentDockProps } from './agent-dock.js';
export { createPling, type Pling } from './create-pling.js';
export { type DockActions, DockView, type DockViewProps } from './dock-view.js';
export { ModelSettingsPanel, type ModelSettingsPanelProps } from './model-settings.js';
export { PlingProvider, type PlingProviderProps, usePling } from './pling-provider.js';
export { useAction } from './use-action.js';
export { useAgentRuntime } from './use-agent-runtime.js';
export { useAgentSession } from './use-agent-session.js';
export { useDockState } from './use-dock-state.js';
export { usePageState } from './use-page-state.js';
export { useTelemetry } from './use-telemetry.js';
