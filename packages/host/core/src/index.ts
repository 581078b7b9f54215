// @aalis/core: the plugin host. No runtime dependencies, no Node-only imports: it runs in browsers too.
export { App, type AppOptions, describe as describeError, type PluginState, type PluginStateInfo } from './app.js';
export { atMost } from './at-most.js';
export { setBounded } from './bounded-map.js';
export {
  config,
  events,
  type I18n,
  i18n,
  type Lifecycle,
  lifecycle,
  logger,
  type PluginConfigMarker,
  type Provide,
  provide,
  type Services,
  services,
} from './builtins.js';
export { coreErrors } from './core-errors.js';
export {
  type AnyDescriptor,
  type Dependency,
  type Disposer,
  defineService,
  descriptorOf,
  type OptionalDescriptor,
  optional,
  type RegistrationOwner,
  type ServiceDescriptor,
  type ServiceType,
} from './descriptor.js';
export { AalisError, type AalisErrorOptions, defineErrors, type ErrorFactory, reasonOf } from './errors.js';
export { EventBus, type EventListener, type EventMap, type EventName, type Events } from './events.js';
export { type FieldCheck, type FieldProblem, failedField, fieldIs } from './field-checks.js';
export {
  DEFAULT_LOCALE,
  defineCatalogue,
  fillPlaceholders,
  isLocale,
  isTextRef,
  LOCALES,
  type Locale,
  type MessageCatalogue,
  registeredTexts,
  type TextRef,
  textRef,
  translate,
  translatorOf,
} from './i18n.js';
export {
  consoleSink,
  LOG_LEVELS,
  type Logger,
  LogHub,
  type LogLevel,
  type LogRecord,
  type LogSink,
  levelAtLeast,
  memorySink,
} from './logger.js';
export { type AnyPluginDefinition, definePlugin, type Handles, type PluginDefinition } from './plugin.js';
export { redactor } from './redact-secrets.js';
export {
  type EffectivePreference,
  type PreferenceSnapshot,
  type ProviderInfo,
  preferenceMatches,
  ServiceRegistry,
} from './registry.js';
export {
  ArraySchema,
  BooleanSchema,
  describeReceived,
  EnumSchema,
  type Infer,
  NumberSchema,
  type ObjectOutput,
  ObjectSchema,
  RecordSchema,
  Schema,
  type SchemaDescription,
  type SchemaIssue,
  type SchemaMeta,
  type Shape,
  StringSchema,
  s,
  UnknownSchema,
} from './schema.js';
export type { ServiceHandle, SwitchReport } from './service-handle.js';
export { type SharedLease, sharedByKey } from './shared-by-key.js';
export { withErrorCode } from './with-error-code.js';
export { isTimeZone, type ZonedTime, zonedTime } from './zoned-time.js';
