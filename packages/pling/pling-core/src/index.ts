// @plingjs/core: Pling's page layer — declared actions and their confirmation policy, sensitive values, the page
// snapshot rebuilt into the system prompt every turn, the confirmation and handoff queues, and what the adapters'
// docks share (DockModel, texts, the stylesheet). Browser-safe.

export type { Listener } from '@plingjs/agent';
export {
  type Action,
  type ActionContext,
  type ActionDefinition,
  assertActionId,
  type ConfirmPolicy,
  defineAction,
  requiresConfirmation,
} from './action.js';
export { type ActionInfo, ActionRegistry, describeAction } from './action-registry.js';
export { adapterUsageError } from './adapter-errors.js';
export {
  type ConfirmationDecision,
  type ConfirmationInput,
  ConfirmationQueue,
  type ConfirmationRequest,
} from './confirmation-queue.js';
export { createPlingCore, type PlingCore, type PlingOptions } from './create-pling-core.js';
export { confirmationArgumentsText } from './dock-derive.js';
export {
  ChatFollower,
  ConfirmationFocus,
  FOLLOW_THRESHOLD,
  renderDockMessageText,
  replyPlaceholderHtml,
} from './dock-dom.js';
export {
  type DockConfirmation,
  type DockError,
  type DockMessage,
  DockModel,
  type DockModelOptions,
  type DockOperation,
  type DockState,
  MAX_DOCK_OPERATIONS,
} from './dock-model.js';
export { DOCK_OPEN_KEY_PREFIX, DockOpenState, type DockOpenStorage } from './dock-open-state.js';
export { DOCK_CSS, DOCK_STYLE_ATTRIBUTE, type DockPlacement, ensureDockStyles } from './dock-styles.js';
export { DOCK_TEXTS, type DockTexts, dockTexts } from './dock-texts.js';
export { PageError, type PageErrorCode } from './errors.js';
export { createHandoffAction, HANDOFF_ACTION_ID, handoffAction } from './handoff-action.js';
export { type HandoffInput, HandoffQueue, type HandoffRequest } from './handoff-queue.js';
export {
  type ModelChoice,
  type ModelSettingField,
  ModelSettings,
  type ModelSettingsInit,
  type ModelSettingsOptions,
  type ModelSettingsState,
  type SettingsStorage,
} from './model-settings.js';
export { MODEL_SETTINGS_TEXTS, type ModelSettingsTexts, modelSettingsTexts } from './model-settings-texts.js';
export { type CreatePageOptions, createPage, type Page, type StateGetter } from './page.js';
export { type PageCheckpointOptions, pageCheckpointOptions } from './page-checkpoint.js';
export type { PageEvent, PageEventBody, PageEventListener, SettledBy } from './page-events.js';
export { formatSnapshot, type SnapshotInput } from './page-snapshot.js';
export {
  clearConversation,
  type PageRuntimeOptions,
  type ToRuntimeOptionsOptions,
  toRuntimeOptions,
} from './runtime-options.js';
export { isSensitive, redact, redactionMarker, reveal, Sensitive, sensitive } from './sensitive.js';
export {
  collectSensitive,
  compileScrubber,
  MIN_SCRUB_LENGTH,
  restoreSensitive,
  type SensitiveVault,
  scrubSensitive,
} from './sensitive-vault.js';
export { stableStringify } from './stable-stringify.js';
export { PAGE_TEXTS, type PageTexts, pageTexts } from './texts.js';
