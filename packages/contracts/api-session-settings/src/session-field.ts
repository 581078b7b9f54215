// Session fields: settings a plugin declares that can be overridden per layer (global … session).
import type { RequiredLevel } from '@aalis/api-authority';
import type { Disposer, TextRef } from '@aalis/core';

export type SessionFieldType = 'llm-ref' | 'select' | 'number' | 'boolean' | 'string[]' | 'string';

/** How prominently a settings UI shows the field: beside the composer, in the common list, or under advanced. */
export type FieldVisibility = 'composer' | 'common' | 'advanced';

/** The value of an 'llm-ref' field: `<provider instance id>/<model id>`, both parts non-empty. */
export interface LlmRef {
  provider: string;
  model: string;
}

/** The value type stored for each field type. */
export interface SessionFieldValueMap {
  'llm-ref': LlmRef;
  select: string;
  number: number;
  boolean: boolean;
  'string[]': string[];
  string: string;
}

export interface FieldOption {
  value: string;
  label: TextRef | string;
}

/** Where a field's options come from at run time (a source registered with registerOptionSource). */
export interface DynamicOptions {
  /** e.g. 'llm-thinking'. */
  source: string;
  /** Keys whose effective values the source needs; a UI refetches the options when one of them changes. */
  dependsOn?: readonly string[];
}

/**
 * A field whose global layer is a value another part of the host owns, not a row of the settings store: e.g. the
 * agent's 「模型」, whose global layer is its llm service preference. Reading the global layer reads it, writing or
 * resetting the global layer writes it, so both sides see one value.
 */
export interface GlobalValue<V> {
  /** The value now; undefined when unset (or when the owner's value is not one this field can hold). */
  read(): V | undefined;
  /** Writes the value (undefined = reset). Throw to refuse; nothing is then changed. */
  write(value: V | undefined): void | Promise<void>;
  /**
   * Calls `listener` when the value changes elsewhere, so the service can emit settings:changed for the global
   * layer. Optional; returns the disposer.
   */
  subscribe?(listener: (value: V | undefined) => void): Disposer;
}

export interface UnsetContext {
  sessionId: string;
  scope: SettingsScope;
}

export interface SessionField<K extends SessionFieldType = SessionFieldType> {
  /** Unique across plugins, e.g. 'llm', 'think', 'enabledToolGroups'. */
  key: string;
  type: K;
  label: TextRef | string;
  description?: TextRef | string;
  visibility: FieldVisibility;
  /** Needed to write (and reset) the field on any layer. */
  level: RequiredLevel;
  /** Effective value when no layer sets one (reported with layer 'default'). */
  default?: SessionFieldValueMap[K];
  /**
   * Extra validation after the type check: what the field expects, worded to follow 「应为」/"expects" as the type
   * check's own phrases are (e.g. 「不小于 1 的整数」 / "an integer of at least 1"), or undefined when the value is fine.
   */
  validate?(value: SessionFieldValueMap[K]): TextRef | string | undefined;
  /** Fixed options of a 'select' field; a written value must be one of them. */
  options?: readonly FieldOption[];
  /** Run-time options (not enforced on write: the value may outlive the options, e.g. a model's thinking levels). */
  dynamicOptions?: DynamicOptions;
  /**
   * A note a UI writes beside an effective value, when the value does not apply as it reads (e.g. a thinking level
   * the current model lacks: 「当前模型没有这一档,按默认(…)」); undefined when there is nothing to add.
   */
  describeValue?(
    context: UnsetContext,
    value: SessionFieldValueMap[K],
  ): TextRef | string | undefined | Promise<TextRef | string | undefined>;
  /** What a UI writes when no layer sets the field and it has no default, e.g. 「跟随服务偏好(此刻:…)」. */
  describeUnset?(context: UnsetContext): TextRef | string | Promise<TextRef | string>;
  /** Where the global layer lives when it is not the settings store (see GlobalValue). */
  globalValue?: GlobalValue<SessionFieldValueMap[K]>;
}

/** Any field, whatever its type (what registries store). */
export type AnySessionField = { [K in SessionFieldType]: SessionField<K> }[SessionFieldType];

/** Context handed to a dynamic option source. */
export interface OptionSourceContext {
  sessionId: string;
  /** Effective values of the field's dependsOn keys (overridable by the caller, e.g. a UI's unsaved choice). */
  values: Record<string, unknown>;
}

export type OptionSource = (context: OptionSourceContext) => Promise<FieldOption[]> | FieldOption[];

/** Who reads/writes settings: the layers a scope resolves through. */
export interface SettingsScope {
  sessionId: string;
  /** The entry platform (of the opening input); with no platform the platform-type, platform and venue layers are skipped. */
  platform?: string;
  /** Room / chat id on that platform. */
  venue?: string;
  /** Overrides the configured platform type of `platform`. */
  platformType?: string;
}
