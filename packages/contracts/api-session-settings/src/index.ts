// @aalis/api-session-settings: Contract of layered session settings and the sessionFields registry.
export {
  describeValue,
  expectedOf,
  formatSettingValue,
  isLlmRef,
  matchesFieldType,
  parseSettingText,
} from './check-value.js';
export { isLayer, LAYERS, layerTargetsOf, type SettingsLayer, type ValueOrigin, venueTarget } from './layers.js';
export type {
  AnySessionField,
  DynamicOptions,
  FieldOption,
  FieldVisibility,
  GlobalValue,
  LlmRef,
  OptionSource,
  OptionSourceContext,
  SessionField,
  SessionFieldType,
  SessionFieldValueMap,
  SettingsScope,
  UnsetContext,
} from './session-field.js';
export {
  type EffectiveValue,
  type FieldInfo,
  type SessionFieldsService,
  type SettingReset,
  type SettingsCaller,
  type SettingWrite,
  sessionFields,
} from './session-fields-service.js';
export { invalidValueError, settingsErrors } from './settings-errors.js';
