// /level and /level.set: see and set authority levels from a chat (setLevel's rule decides who may set what).
import { type AuthorityService, isLevel } from '@aalis/api-authority';
import type { CommandDefinition } from '@aalis/api-commands';
import { defineCatalogue, textRef } from '@aalis/core';

defineCatalogue({
  'zh-CN': {
    'authority.level.description': '看自己（或某个账号）的权限等级',
    'authority.level.usage': '[<平台> <账号>]',
    'authority.level.owner': '{platform}:{userId} 是 owner（高于任何等级）。',
    'authority.level.level': '{platform}:{userId} 的权限等级是 {level}。',
    'authority.level.nobody': '你没有平台账号，按所有人（0 级）算。',
    'authority.set.description': '设置一个账号的权限等级（0 为去掉）；owner 或等级高于目标新旧等级的人可用',
    'authority.set.usage': '<平台> <账号> <等级>',
    'authority.set.missing': '用法：/level.set <平台> <账号> <等级>，等级是不小于 0 的整数。',
    'authority.set.done': '已将 {platform}:{userId} 的权限等级设为 {level}。',
  },
  en: {
    'authority.level.description': 'Shows your authority level (or that of an account)',
    'authority.level.usage': '[<platform> <userId>]',
    'authority.level.owner': '{platform}:{userId} is an owner (above every level).',
    'authority.level.level': 'The authority level of {platform}:{userId} is {level}.',
    'authority.level.nobody': 'You have no platform account, so you count as everyone (level 0).',
    'authority.set.description':
      "Sets an account's authority level (0 removes it); for owners and those above the target's old and new level",
    'authority.set.usage': '<platform> <userId> <level>',
    'authority.set.missing': 'Usage: /level.set <platform> <userId> <level>, the level an integer ≥ 0.',
    'authority.set.done': 'The authority level of {platform}:{userId} is now {level}.',
  },
});

export function authorityCommands(service: AuthorityService): CommandDefinition[] {
  return [
    {
      name: 'level',
      description: textRef('authority.level.description'),
      usage: textRef('authority.level.usage'),
      handler({ args, caller }) {
        const [platform, userId] = args;
        const identity = platform !== undefined && userId !== undefined ? { platform, userId } : caller.identity;
        if (!identity) return textRef('authority.level.nobody');
        if (service.isOwner(identity)) return textRef('authority.level.owner', { ...identity });
        return textRef('authority.level.level', { ...identity, level: service.levelOf(identity) });
      },
    },
    {
      name: 'level.set',
      description: textRef('authority.set.description'),
      usage: textRef('authority.set.usage'),
      level: 1,
      async handler({ args, caller }) {
        const [platform, userId, levelText] = args;
        const level = levelText !== undefined && /^\d+$/.test(levelText) ? Number(levelText) : Number.NaN;
        if (platform === undefined || userId === undefined || !isLevel(level)) return textRef('authority.set.missing');
        await service.setLevel({ identity: { platform, userId }, level, caller });
        return textRef('authority.set.done', { platform, userId, level });
      },
    },
  ];
}
