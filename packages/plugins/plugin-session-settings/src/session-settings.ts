// The session settings service: the field registry, effective values resolved through the layers
// (global < platformType < platform < venue < session), and checked writes persisted in SQLite.
import { type AuthorityService, type Caller, describeRequiredLevel, meetsLevel } from '@aalis/api-authority';
import {
  type AnySessionField,
  describeValue,
  type EffectiveValue,
  expectedOf,
  type FieldInfo,
  type FieldOption,
  type GlobalValue,
  invalidValueError,
  isLayer,
  layerTargetsOf,
  matchesFieldType,
  type OptionSource,
  type SessionFieldsService,
  type SettingReset,
  type SettingsCaller,
  type SettingsLayer,
  type SettingsScope,
  type SettingWrite,
  settingsErrors,
} from '@aalis/api-session-settings';
import type { Disposer, Events, Logger, RegistrationOwner, TextRef } from '@aalis/core';
import { FieldRegistry } from './field-registry.js';
import { frozenCopy } from './frozen-value.js';
import { GlobalValues } from './global-values.js';
import type { SettingsStore } from './settings-store.js';

const OWNER: Caller = Object.freeze({ isOwner: true, level: 0 });
const NOBODY: Caller = Object.freeze({ isOwner: false, level: 0 });

export interface SessionSettingsOptions {
  store: SettingsStore;
  /** Platform id → platform type (config `platformTypes`); unmapped platforms have no platform-type layer. */
  platformTypes?: Readonly<Record<string, string>>;
  /** The authority service now, if any. */
  authority?: () => AuthorityService | undefined;
  /** Fills platform/venue of a scope that has none (from the session manager); optional. */
  completeScope?: (scope: SettingsScope) => Promise<SettingsScope>;
  events?: Pick<Events, 'emit'>;
  logger?: Logger;
}

type LayerTarget = { readonly layer: SettingsLayer; readonly target: string };

interface ScopeTargets {
  platform: string | undefined;
  venue: string | undefined;
  platformType: string | undefined;
  targets: readonly LayerTarget[];
}

/** Sessions whose layer targets are kept (a few hundred bytes each). */
const TARGETS_KEPT = 1024;

const TARGET_WHAT: Record<SettingsLayer, string> = {
  global: '',
  platformType: 'a platform type',
  platform: 'a platform id',
  venue: '<platform>/<venue>',
  session: 'a session id',
};

export class SessionSettings implements SessionFieldsService {
  private readonly registry = new FieldRegistry();
  private readonly globals: GlobalValues;
  private readonly defaults = new WeakMap<AnySessionField, unknown>();
  /**
   * The layer targets of the last complete scope read per session (a turn reads ~6 keys of one scope; building
   * them per read was most of a read's allocation). Only a pure function of the scope's fields is kept.
   */
  private readonly targetsBySession = new Map<string, ScopeTargets>();

  constructor(private readonly config: SessionSettingsOptions) {
    this.globals = new GlobalValues(config);
  }

  register(field: AnySessionField, owner?: RegistrationOwner): Disposer {
    const disposer = this.registry.register(field, owner);
    if (!field.globalValue) return disposer;
    const unsubscribe = this.globals.bind(field, field.globalValue as GlobalValue<unknown>);
    return () => {
      unsubscribe?.();
      disposer();
    };
  }

  registerOptionSource(source: string, provider: OptionSource, _owner?: RegistrationOwner): Disposer {
    return this.registry.registerOptionSource(source, provider);
  }

  fields(): FieldInfo[] {
    return this.registry.all();
  }

  field(key: string): FieldInfo | undefined {
    return this.registry.get(key);
  }

  async get(scope: SettingsScope, key: string): Promise<EffectiveValue> {
    const field = this.registry.require(key);
    // A scope that needs no completion, on targets already held, is read without waiting on anything.
    const targets = this.needsCompletion(scope) ? await this.targetsOf(scope) : this.targetsOfComplete(scope);
    const rows = this.config.store.readHeld(targets, key) ?? (await this.config.store.read(targets, key));
    return this.resolve(field, targets, rows);
  }

  async getAll(scope: SettingsScope): Promise<Record<string, EffectiveValue>> {
    const targets = await this.targetsOf(scope);
    const stored = await this.config.store.read(targets);
    const result: Record<string, EffectiveValue> = {};
    for (const { field } of this.registry.all()) {
      result[field.key] = this.resolve(
        field,
        targets,
        stored.filter((row) => row.key === field.key),
      );
    }
    return result;
  }

  async describeValue(scope: SettingsScope, key: string, value: unknown): Promise<TextRef | string | undefined> {
    const field = this.registry.require(key);
    if (!field.describeValue) return undefined;
    const complete = await this.complete(scope);
    // The field's own type: its stored values were checked against it on write.
    return (
      field.describeValue as (
        context: { sessionId: string; scope: SettingsScope },
        value: unknown,
      ) => ReturnType<NonNullable<typeof field.describeValue>>
    )({ sessionId: complete.sessionId, scope: complete }, value);
  }

  async describeUnset(scope: SettingsScope, key: string): Promise<TextRef | string | undefined> {
    const field = this.registry.require(key);
    if (!field.describeUnset) return undefined;
    const complete = await this.complete(scope);
    return field.describeUnset({ sessionId: complete.sessionId, scope: complete });
  }

  async options({
    scope,
    key,
    values = {},
  }: {
    scope: SettingsScope;
    key: string;
    values?: Record<string, unknown>;
  }): Promise<FieldOption[]> {
    const field = this.registry.require(key);
    if (!field.dynamicOptions) return field.type === 'select' ? [...(field.options ?? [])] : [];
    const source = this.registry.source(field.dynamicOptions.source);
    if (!source) return [];
    const context: Record<string, unknown> = {};
    for (const dependency of field.dynamicOptions.dependsOn ?? []) {
      context[dependency] = dependency in values ? values[dependency] : (await this.get(scope, dependency)).value;
    }
    return [...(await source({ sessionId: scope.sessionId, values: context }))];
  }

  async layerValues({ layer, target }: { layer: SettingsLayer; target: string }): Promise<Record<string, unknown>> {
    this.checkTarget(layer, target);
    const rows = await this.config.store.read([{ layer, target: layer === 'global' ? '' : target }]);
    const values = Object.fromEntries(
      rows
        .filter((row) => layer !== 'global' || !this.globals.of(this.registry.get(row.key)?.field))
        .map((row) => [row.key, row.value]),
    );
    if (layer !== 'global') return values;
    for (const { field } of this.registry.all()) {
      const value = field.globalValue?.read();
      if (value !== undefined && matchesFieldType(field, value)) values[field.key] = value;
    }
    return values;
  }

  async set({ layer, target, key, value, caller }: SettingWrite): Promise<void> {
    const field = this.registry.require(key);
    const stored = this.checkWrite({ layer, target, field, caller });
    if (!matchesFieldType(field, value)) this.invalid(field, expectedOf(field), value);
    // The value matched the field's type just above, so its validate() accepts it.
    const validate = field.validate as ((value: unknown) => TextRef | string | undefined) | undefined;
    const problem = validate?.call(field, value);
    if (problem !== undefined) this.invalid(field, problem, value);
    const bound = layer === 'global' ? this.globals.of(field) : undefined;
    if (bound) await this.globals.write(bound, value);
    else await this.config.store.write({ layer, target: stored, key, value });
    this.config.events?.emit('settings:changed', { layer, target: stored, key, value });
  }

  async reset({ layer, target, key, caller }: SettingReset): Promise<void> {
    const field = this.registry.require(key);
    const stored = this.checkWrite({ layer, target, field, caller });
    const bound = layer === 'global' ? this.globals.of(field) : undefined;
    if (bound) {
      if (bound.read() === undefined) return;
      await this.globals.write(bound, undefined);
    } else if (!(await this.config.store.remove({ layer, target: stored, key }))) return;
    this.config.events?.emit('settings:changed', { layer, target: stored, key, value: undefined });
  }

  /**
   * The caller's rights. A host caller without an identity is the host itself (owner rights). Otherwise the
   * authority service's callerOf(identity) when present; without it, chat = nobody and host = owner.
   */
  callerOf(caller: SettingsCaller): Caller {
    if (caller?.via === 'host' && !caller.identity) return OWNER;
    const authority = this.config.authority?.();
    if (authority) return authority.callerOf(caller?.identity);
    return caller?.via === 'host' ? OWNER : NOBODY;
  }

  /** Checks layer, target and level; returns the stored target ('' for global). */
  private checkWrite({
    layer,
    target,
    field,
    caller,
  }: {
    layer: SettingsLayer;
    target: string;
    field: AnySessionField;
    caller: SettingsCaller;
  }): string {
    this.checkTarget(layer, target);
    const rights = this.callerOf(caller);
    if (!meetsLevel({ ...rights, required: field.level })) {
      throw settingsErrors.AALIS_SETTINGS_FORBIDDEN({
        key: field.key,
        required: describeRequiredLevel(field.level),
        level: rights.level,
      });
    }
    return layer === 'global' ? '' : target;
  }

  private checkTarget(layer: SettingsLayer, target: string): void {
    if (!isLayer(layer)) throw settingsErrors.AALIS_SETTINGS_INVALID_LAYER({ layer: String(layer) });
    if (layer !== 'global' && (typeof target !== 'string' || target === '')) {
      throw settingsErrors.AALIS_SETTINGS_INVALID_TARGET({
        layer,
        what: TARGET_WHAT[layer],
        received: describeValue(target),
      });
    }
  }

  private invalid(field: AnySessionField, expected: TextRef | string, value: unknown): never {
    throw invalidValueError(field.key, expected, describeValue(value));
  }

  private resolve(
    field: AnySessionField,
    targets: readonly { layer: SettingsLayer; target: string }[],
    rows: readonly { layer: SettingsLayer; target: string; value: unknown }[],
  ): EffectiveValue {
    const bound = field.globalValue as GlobalValue<unknown> | undefined;
    for (const { layer, target } of targets) {
      if (layer === 'global' && bound) {
        // The global layer is the owner's value itself, never a stored row.
        const value = bound.read();
        if (value !== undefined && matchesFieldType(field, value)) return { value, layer };
        continue;
      }
      const row = rows.find((candidate) => candidate.layer === layer && candidate.target === target);
      if (!row) continue;
      if (matchesFieldType(field, row.value)) return { value: row.value, layer };
      this.config.logger?.warn('stored setting no longer fits its field; skipped', { key: field.key, layer, target });
    }
    if (field.default !== undefined) return { value: this.defaultOf(field), layer: 'default' };
    return { value: undefined, layer: 'unset' };
  }

  /** A field's default as a frozen copy made once (the field's own object stays its owner's). */
  private defaultOf(field: AnySessionField): unknown {
    if (typeof field.default !== 'object' || field.default === null) return field.default;
    let copy = this.defaults.get(field);
    if (copy === undefined) {
      copy = frozenCopy(field.default);
      this.defaults.set(field, copy);
    }
    return copy;
  }

  private needsCompletion(scope: SettingsScope): boolean {
    return this.config.completeScope !== undefined && !scope.platform;
  }

  private async complete(scope: SettingsScope): Promise<SettingsScope> {
    const complete = this.needsCompletion(scope) ? await this.config.completeScope!(scope) : scope;
    const platformType = this.platformTypeOf(complete);
    return platformType === undefined ? complete : { ...complete, platformType };
  }

  private platformTypeOf(complete: SettingsScope): string | undefined {
    return complete.platformType ?? (complete.platform ? this.config.platformTypes?.[complete.platform] : undefined);
  }

  private async targetsOf(scope: SettingsScope): Promise<readonly LayerTarget[]> {
    return this.targetsOfComplete(this.needsCompletion(scope) ? await this.config.completeScope!(scope) : scope);
  }

  /** layerTargetsOf of a scope that needs no completion, kept per session while its fields stay the same. */
  private targetsOfComplete(complete: SettingsScope): readonly LayerTarget[] {
    const platformType = this.platformTypeOf(complete);
    const { sessionId, platform, venue } = complete;
    const known = this.targetsBySession.get(sessionId);
    if (known && known.platform === platform && known.venue === venue && known.platformType === platformType) {
      return known.targets;
    }
    const targets = layerTargetsOf({ sessionId, platform, venue, platformType });
    // Oldest session first out: bounded, however many sessions a process serves.
    if (!known && this.targetsBySession.size >= TARGETS_KEPT) {
      this.targetsBySession.delete(this.targetsBySession.keys().next().value!);
    }
    this.targetsBySession.set(sessionId, { platform, venue, platformType, targets });
    return targets;
  }
}
