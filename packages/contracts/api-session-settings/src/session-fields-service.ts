// The session settings contract: the field registry (descriptor `sessionFields`) and layered values.

import {
  type Disposer,
  defineService,
  type RegistrationOwner,
  type ServiceDescriptor,
  type TextRef,
} from '@aalis/core';
import type { Identity } from '@aalis/schema-message';
import type { SettingsLayer, ValueOrigin } from './layers.js';
import type { AnySessionField, FieldOption, OptionSource, SettingsScope } from './session-field.js';

/** An effective value and where it came from. */
export interface EffectiveValue {
  value: unknown;
  layer: ValueOrigin;
}

/** A registered field and the plugin instance that registered it. */
export interface FieldInfo {
  field: AnySessionField;
  plugin: string;
}

/**
 * Who writes; checked against the field's level.
 * - 'chat': a command or tool acting for someone in a chat. Rights = the authority service's callerOf(identity);
 *   without an authority service, nobody (level 0, not owner).
 * - 'host': host code (agent.assignModel, an admin UI that did its own authentication). Without an identity it is
 *   the host itself and has owner rights; with one, it is checked like a chat caller when the authority service
 *   is present, and has owner rights when it is absent.
 */
export interface SettingsCaller {
  identity?: Identity;
  via: 'chat' | 'host';
}

export interface SettingWrite {
  layer: SettingsLayer;
  /** '' for global; the platform type, platform id, venueTarget(…), or session id for the other layers. */
  target: string;
  key: string;
  value: unknown;
  caller: SettingsCaller;
}

export type SettingReset = Omit<SettingWrite, 'value'>;

export interface SessionFieldsService {
  /** Registers a field, owned by the caller (registrar): it disappears when its plugin deactivates. */
  register(field: AnySessionField, owner?: RegistrationOwner): Disposer;
  /** Registers a dynamic option source by name (registrar). */
  registerOptionSource(source: string, provider: OptionSource, owner?: RegistrationOwner): Disposer;
  /** Every registered field, in registration order. */
  fields(): FieldInfo[];
  /** One field, or undefined. */
  field(key: string): FieldInfo | undefined;
  /** The effective value of a field for a scope. Throws AALIS_SETTINGS_UNKNOWN_FIELD for an unknown key. */
  get(scope: SettingsScope, key: string): Promise<EffectiveValue>;
  /** Effective values of every registered field for a scope. */
  getAll(scope: SettingsScope): Promise<Record<string, EffectiveValue>>;
  /** The note a UI shows beside an effective value: the field's describeValue, if any. */
  describeValue(scope: SettingsScope, key: string, value: unknown): Promise<TextRef | string | undefined>;
  /** What a UI shows for an unset field: the field's describeUnset, if any. */
  describeUnset(scope: SettingsScope, key: string): Promise<TextRef | string | undefined>;
  /**
   * The options of a 'select' field: fixed options, or those of its dynamic source called with the effective
   * values of dependsOn (overridden by `values`). [] when the source is not registered.
   */
  options(options: { scope: SettingsScope; key: string; values?: Record<string, unknown> }): Promise<FieldOption[]>;
  /** The values stored on one layer target. */
  layerValues(options: { layer: SettingsLayer; target: string }): Promise<Record<string, unknown>>;
  /**
   * Writes a value. Errors (coded; nothing written): AALIS_SETTINGS_UNKNOWN_FIELD, AALIS_SETTINGS_INVALID_LAYER,
   * AALIS_SETTINGS_INVALID_TARGET, AALIS_SETTINGS_INVALID_VALUE (type or validate()), AALIS_SETTINGS_FORBIDDEN.
   */
  set(write: SettingWrite): Promise<void>;
  /** Removes a layer's value (same checks as set, without the value checks). Resetting an unset value is a no-op. */
  reset(reset: SettingReset): Promise<void>;
}

export const sessionFields: ServiceDescriptor<SessionFieldsService> = defineService<SessionFieldsService>(
  'sessionFields',
  { registrars: ['register', 'registerOptionSource'] },
);

declare module '@aalis/core' {
  interface EventMap {
    /** A layer value was written (value undefined: reset). */
    'settings:changed': { layer: SettingsLayer; target: string; key: string; value: unknown };
  }
}
