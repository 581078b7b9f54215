// The registry of session fields and dynamic option sources, with definition checks.
import { isRequiredLevel } from '@aalis/api-authority';
import {
  type AnySessionField,
  type FieldInfo,
  matchesFieldType,
  type OptionSource,
  settingsErrors,
} from '@aalis/api-session-settings';
import type { Disposer, RegistrationOwner } from '@aalis/core';

const TYPES = new Set(['llm-ref', 'select', 'number', 'boolean', 'string[]', 'string']);
const VISIBILITIES = new Set(['composer', 'common', 'advanced']);

/** What is wrong with a field definition, or undefined. */
function definitionProblem(field: AnySessionField): string | undefined {
  if (!TYPES.has(field.type)) return `type must be one of ${[...TYPES].join(', ')}`;
  if (!VISIBILITIES.has(field.visibility)) return `visibility must be one of ${[...VISIBILITIES].join(', ')}`;
  if (!isRequiredLevel(field.level)) return 'level must be an integer ≥ 0 or "owner"';
  if (field.label === undefined) return 'a label is required';
  if (field.options !== undefined && field.type !== 'select') return 'only select fields have options';
  if (field.default !== undefined && !matchesFieldType(field, field.default))
    return 'the default does not match the type';
  if (
    field.dynamicOptions !== undefined &&
    (typeof field.dynamicOptions.source !== 'string' || field.dynamicOptions.source === '')
  ) {
    return 'dynamicOptions.source must be a non-empty string';
  }
  if (
    field.globalValue !== undefined &&
    (typeof field.globalValue.read !== 'function' || typeof field.globalValue.write !== 'function')
  ) {
    return 'globalValue needs read() and write()';
  }
  return undefined;
}

export class FieldRegistry {
  private readonly entries = new Map<string, FieldInfo>();
  private readonly sources = new Map<string, OptionSource>();

  register(field: AnySessionField, owner?: RegistrationOwner): Disposer {
    const key = typeof field?.key === 'string' ? field.key : '';
    if (key === '')
      throw settingsErrors.AALIS_SETTINGS_INVALID_FIELD({
        key: String(field?.key),
        problem: 'the key must be a non-empty string',
      });
    const problem = definitionProblem(field);
    if (problem) throw settingsErrors.AALIS_SETTINGS_INVALID_FIELD({ key, problem });
    const existing = this.entries.get(key);
    if (existing) throw settingsErrors.AALIS_SETTINGS_DUPLICATE_FIELD({ key, plugin: existing.plugin || '(host)' });
    const info: FieldInfo = { field, plugin: owner?.instanceId ?? '' };
    this.entries.set(key, info);
    return () => {
      if (this.entries.get(key) === info) this.entries.delete(key);
    };
  }

  registerOptionSource(source: string, provider: OptionSource): Disposer {
    this.sources.set(source, provider);
    return () => {
      if (this.sources.get(source) === provider) this.sources.delete(source);
    };
  }

  all(): FieldInfo[] {
    return [...this.entries.values()];
  }

  get(key: string): FieldInfo | undefined {
    return this.entries.get(key);
  }

  /** The field, or AALIS_SETTINGS_UNKNOWN_FIELD listing the known keys. */
  require(key: string): AnySessionField {
    const info = this.entries.get(key);
    if (!info) {
      throw settingsErrors.AALIS_SETTINGS_UNKNOWN_FIELD({
        key: String(key),
        known: [...this.entries.keys()].join(', ') || '(none)',
      });
    }
    return info.field;
  }

  source(name: string): OptionSource | undefined {
    return this.sources.get(name);
  }
}
