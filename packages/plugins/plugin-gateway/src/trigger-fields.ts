// The trigger policy as session fields: each setting on the layers (global < platform type < platform < venue <
// session), so /session and the WebUI show and edit them; the configuration's `trigger` section gives the defaults.
import type { AnySessionField, SessionFieldsService, SettingsScope } from '@aalis/api-session-settings';
import { textRef } from '@aalis/core';
import type { TriggerRules } from './judge-trigger.js';
import './gateway-catalogue.js';

export const TRIGGER_FIELD = {
  names: 'triggerNames',
  keywords: 'triggerKeywords',
  poke: 'triggerPoke',
  joinChance: 'joinChance',
  joinIntervalSeconds: 'joinIntervalSeconds',
} as const;

export interface TriggerDefaults {
  names: readonly string[];
  keywords: readonly string[];
  poke: boolean;
  joinChance: number;
  joinIntervalSeconds: number;
  unaddressed: 'drop' | 'ambient';
}

export function triggerFields(defaults: TriggerDefaults): AnySessionField[] {
  return [
    {
      key: TRIGGER_FIELD.names,
      type: 'string[]',
      label: textRef('gateway.field.triggerNames'),
      visibility: 'common',
      level: 1,
      default: [...defaults.names],
    },
    {
      key: TRIGGER_FIELD.keywords,
      type: 'string[]',
      label: textRef('gateway.field.triggerKeywords'),
      visibility: 'advanced',
      level: 1,
      default: [...defaults.keywords],
    },
    {
      key: TRIGGER_FIELD.poke,
      type: 'boolean',
      label: textRef('gateway.field.triggerPoke'),
      visibility: 'advanced',
      level: 1,
      default: defaults.poke,
    },
    {
      key: TRIGGER_FIELD.joinChance,
      type: 'number',
      label: textRef('gateway.field.joinChance'),
      visibility: 'advanced',
      level: 1,
      default: defaults.joinChance,
      validate: (value: number) => (value >= 0 && value <= 1 ? undefined : textRef('gateway.expected.chance')),
    },
    {
      key: TRIGGER_FIELD.joinIntervalSeconds,
      type: 'number',
      label: textRef('gateway.field.joinIntervalSeconds'),
      visibility: 'advanced',
      level: 1,
      default: defaults.joinIntervalSeconds,
      validate: (value: number) => (value >= 0 ? undefined : textRef('gateway.expected.seconds')),
    },
  ] as AnySessionField[];
}

/** The rules in force for one scope: the session fields when registered, the configuration's defaults otherwise. */
export async function triggerRulesFor(
  fields: SessionFieldsService | undefined,
  scope: SettingsScope,
  defaults: TriggerDefaults,
): Promise<TriggerRules> {
  const rules: TriggerRules = {
    names: defaults.names,
    keywords: defaults.keywords,
    poke: defaults.poke,
    unaddressed: defaults.unaddressed,
    joinChance: defaults.joinChance,
    joinIntervalMs: defaults.joinIntervalSeconds * 1000,
  };
  if (!fields?.field(TRIGGER_FIELD.names)) return rules;
  const values = await fields.getAll(scope);
  const read = <T>(key: string, check: (value: unknown) => value is T): T | undefined => {
    const value = values[key]?.value;
    return check(value) ? value : undefined;
  };
  const isStrings = (value: unknown): value is string[] =>
    Array.isArray(value) && value.every((entry) => typeof entry === 'string');
  const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
  rules.names = read(TRIGGER_FIELD.names, isStrings) ?? rules.names;
  rules.keywords = read(TRIGGER_FIELD.keywords, isStrings) ?? rules.keywords;
  rules.poke = read(TRIGGER_FIELD.poke, isBoolean) ?? rules.poke;
  rules.joinChance = read(TRIGGER_FIELD.joinChance, isNumber) ?? rules.joinChance;
  const interval = read(TRIGGER_FIELD.joinIntervalSeconds, isNumber);
  if (interval !== undefined) rules.joinIntervalMs = interval * 1000;
  return rules;
}
