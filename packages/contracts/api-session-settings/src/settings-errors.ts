// Coded errors of the session settings service. Codes are never reused.
import { type AalisError, defineErrors, type TextRef, translate } from '@aalis/core';

export const settingsErrors = defineErrors({
  AALIS_SETTINGS_UNKNOWN_FIELD: {
    en: 'There is no session setting "{key}". Known settings: {known}.',
    'zh-CN': '没有「{key}」这个会话设置项。已有的设置项：{known}。',
  },
  AALIS_SETTINGS_INVALID_VALUE: {
    en: 'Session setting "{key}" expects {expected}, received {received}. Nothing was changed.',
    // {expectedZh}: what was expected, in Chinese (a parameter is one string; see invalidValueError).
    'zh-CN': '会话设置项「{key}」应为 {expectedZh}，实际为 {received}。没有做任何改动。',
  },
  AALIS_SETTINGS_FORBIDDEN: {
    en: 'Changing session setting "{key}" needs authority level {required}; yours is {level}. Nothing was changed.',
    'zh-CN': '修改会话设置项「{key}」需要 {required} 级权限，你的等级是 {level}。没有做任何改动。',
  },
  AALIS_SETTINGS_INVALID_LAYER: {
    en: 'Settings layer "{layer}" does not exist. Use one of: global, platformType, platform, venue, session.',
    'zh-CN': '没有「{layer}」这一层。可用的层：global、platformType、platform、venue、session。',
  },
  AALIS_SETTINGS_INVALID_TARGET: {
    en: 'The {layer} layer needs a non-empty target ({what}), received {received}.',
    'zh-CN': '{layer} 层需要非空的目标（{what}），实际为 {received}。',
  },
  AALIS_SETTINGS_DUPLICATE_FIELD: {
    en: 'Session setting "{key}" is already registered by {plugin}. Each key belongs to one plugin; pick another key.',
    'zh-CN': '会话设置项「{key}」已由 {plugin} 登记。一个键只属于一个插件，请换个键。',
  },
  AALIS_SETTINGS_INVALID_FIELD: {
    en: 'Session setting definition "{key}" is invalid: {problem}.',
    'zh-CN': '会话设置项定义「{key}」不合法：{problem}。',
  },
});

/**
 * AALIS_SETTINGS_INVALID_VALUE, saying what was expected in the reader's language whichever it is: the error is
 * rendered where it is read (a WebUI page in Chinese, a command in English), long after it was made, and a parameter
 * is one string, so it carries both renderings and each language's template names its own.
 */
export function invalidValueError(key: string, expected: TextRef | string, received: string): AalisError {
  return settingsErrors.AALIS_SETTINGS_INVALID_VALUE({
    key,
    expected: translate(expected, 'en'),
    expectedZh: translate(expected, 'zh-CN'),
    received,
  });
}
