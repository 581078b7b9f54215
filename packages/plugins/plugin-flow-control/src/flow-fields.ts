// The rules of one room as session fields: cooldowns, the room's rate limit and quiet hours may differ per layer
// (global < platform type < platform < venue < session), so /session and the WebUI's settings panel show and edit
// them; the configuration's flow-control section gives their defaults. A person's limit across rooms and a
// platform's are not a room's business and stay in the configuration.
import type { AnySessionField, SessionFieldsService, SettingsScope } from '@aalis/api-session-settings';
import { defineCatalogue, textRef } from '@aalis/core';
import type { RoomRules } from './flow-control.js';
import { isClock } from './quiet-hours.js';

export const FLOW_FIELD = {
  roomCooldown: 'flowRoomCooldownSeconds',
  personCooldown: 'flowPersonCooldownSeconds',
  roomPerMinute: 'flowRoomPerMinute',
  quietFrom: 'flowQuietFrom',
  quietTo: 'flowQuietTo',
} as const;

defineCatalogue({
  'zh-CN': {
    'flow.field.roomCooldown': '冷却：会话（秒，0 为关闭）',
    'flow.field.personCooldown': '冷却：每人（秒，0 为关闭）',
    'flow.field.roomPerMinute': '限速：会话每分钟（0 为不限）',
    'flow.field.quietFrom': '安静时段开始（时：分，留空为没有）',
    'flow.field.quietTo': '安静时段结束（时：分）',
    'flow.expected.seconds': '不小于 0 的秒数',
    'flow.expected.perMinute': '不小于 0 的数',
    'flow.expected.clock': '「时：分」（24 小时制，如 23:00）或空',
  },
  en: {
    'flow.field.roomCooldown': 'Cooldown per chat (seconds, 0 = off)',
    'flow.field.personCooldown': 'Cooldown per person (seconds, 0 = off)',
    'flow.field.roomPerMinute': 'Rate limit per chat per minute (0 = none)',
    'flow.field.quietFrom': 'Quiet hours from (HH:MM, empty = none)',
    'flow.field.quietTo': 'Quiet hours to (HH:MM)',
    'flow.expected.seconds': 'a number of seconds of at least 0',
    'flow.expected.perMinute': 'a number of at least 0',
    'flow.expected.clock': "'HH:MM' (24-hour, e.g. 23:00) or empty",
  },
});

export function flowFields(defaults: RoomRules): AnySessionField[] {
  const atLeastZero = (expected: string) => (value: number) =>
    Number.isFinite(value) && value >= 0 ? undefined : textRef(expected);
  const clock = (value: string) => (value === '' || isClock(value) ? undefined : textRef('flow.expected.clock'));
  return [
    {
      key: FLOW_FIELD.roomCooldown,
      type: 'number',
      label: textRef('flow.field.roomCooldown'),
      visibility: 'advanced',
      level: 1,
      default: defaults.cooldown.roomSeconds,
      validate: atLeastZero('flow.expected.seconds'),
    },
    {
      key: FLOW_FIELD.personCooldown,
      type: 'number',
      label: textRef('flow.field.personCooldown'),
      visibility: 'advanced',
      level: 1,
      default: defaults.cooldown.personSeconds,
      validate: atLeastZero('flow.expected.seconds'),
    },
    {
      key: FLOW_FIELD.roomPerMinute,
      type: 'number',
      label: textRef('flow.field.roomPerMinute'),
      visibility: 'advanced',
      level: 1,
      default: defaults.roomRate.perMinute,
      validate: atLeastZero('flow.expected.perMinute'),
    },
    {
      key: FLOW_FIELD.quietFrom,
      type: 'string',
      label: textRef('flow.field.quietFrom'),
      visibility: 'advanced',
      level: 1,
      default: defaults.quietHours.from,
      validate: clock,
    },
    {
      key: FLOW_FIELD.quietTo,
      type: 'string',
      label: textRef('flow.field.quietTo'),
      visibility: 'advanced',
      level: 1,
      default: defaults.quietHours.to,
      validate: clock,
    },
  ] as AnySessionField[];
}

/** The rules in force for a room: its layers' values over the configuration's. */
export async function roomRulesFor(
  fields: SessionFieldsService,
  scope: SettingsScope,
  defaults: RoomRules,
): Promise<RoomRules> {
  const values = await fields.getAll(scope);
  const number = (key: string, fallback: number) => {
    const value = values[key]?.value;
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
  };
  const text = (key: string, fallback: string) => {
    const value = values[key]?.value;
    return typeof value === 'string' && (value === '' || isClock(value)) ? value : fallback;
  };
  const perMinute = number(FLOW_FIELD.roomPerMinute, defaults.roomRate.perMinute);
  return {
    cooldown: {
      roomSeconds: number(FLOW_FIELD.roomCooldown, defaults.cooldown.roomSeconds),
      personSeconds: number(FLOW_FIELD.personCooldown, defaults.cooldown.personSeconds),
    },
    // A room's own rate keeps the configured burst when it has one, else takes its rate as the burst.
    roomRate: { perMinute, burst: perMinute === defaults.roomRate.perMinute ? defaults.roomRate.burst : 0 },
    quietHours: {
      from: text(FLOW_FIELD.quietFrom, defaults.quietHours.from),
      to: text(FLOW_FIELD.quietTo, defaults.quietHours.to),
      timeZone: defaults.quietHours.timeZone,
    },
  };
}
