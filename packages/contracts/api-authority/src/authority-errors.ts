// Coded errors of the authority service. Codes are never reused.
import { defineErrors } from '@aalis/core';

export const authorityErrors = defineErrors({
  AALIS_AUTHORITY_INVALID_LEVEL: {
    en: 'Authority level must be an integer ≥ 0 (0 = everyone), received {received}. Pass a whole number such as 1 or 2.',
    'zh-CN': '权限等级应为不小于 0 的整数（0 表示所有人），实际为 {received}。请传入 1、2 这样的整数。',
  },
  AALIS_AUTHORITY_INVALID_IDENTITY: {
    en: 'An identity needs a non-empty platform and userId, received {received}. Pass { platform, userId } of a platform account.',
    'zh-CN': '身份需要非空的 platform 与 userId，实际为 {received}。请传入平台账号的 { platform, userId }。',
  },
  AALIS_AUTHORITY_OWNER_TARGET: {
    en: "{platform}:{userId} is an owner; owners are configured in the authority plugin's `owners` list and have no level. Edit the configuration instead.",
    'zh-CN': '{platform}:{userId} 是 owner；owner 在权限插件配置的 owners 里指定，没有等级。请改配置。',
  },
  AALIS_AUTHORITY_FORBIDDEN: {
    en: 'Only an owner, or someone whose level is above both the current ({current}) and the new level ({level}), can set the level of {platform}:{userId}; your level is {callerLevel}.',
    'zh-CN':
      '只有 owner，或等级高于目标现有等级（{current}）与新等级（{level}）的人，才能设置 {platform}:{userId} 的等级；你的等级是 {callerLevel}。',
  },
});
