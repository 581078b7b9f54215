// Coded errors and fixed texts of the commands service. Codes are never reused.
import { AalisError, defineCatalogue, defineErrors, type Locale, textRef, withErrorCode } from '@aalis/core';

export const commandErrors = defineErrors({
  AALIS_COMMAND_UNKNOWN: {
    en: 'Unknown command /{name}. Send /help to see the commands you can use.',
    'zh-CN': '没有 /{name} 这个指令。发 /help 看你能用的指令。',
  },
  AALIS_COMMAND_FORBIDDEN: {
    en: '/{name} needs authority level {required}; yours is {level}. Ask an owner if you need it.',
    'zh-CN': '/{name} 需要 {required} 级权限，你的等级是 {level}。需要的话请找 owner。',
  },
  AALIS_COMMAND_FAILED: {
    en: '/{name} failed: {reason}',
    'zh-CN': '/{name} 执行失败：{reason}',
  },
  AALIS_COMMAND_DUPLICATE: {
    en: 'Command /{name} is already registered by {plugin}. Pick another name, or unregister the first one.',
    'zh-CN': '指令 /{name} 已由 {plugin} 注册。请换个名字，或先撤下前一个。',
  },
  AALIS_COMMAND_INVALID_NAME: {
    en: 'Command name "{name}" is invalid: use letters, digits, "_", "-" and "." (not first), e.g. "session.set".',
    'zh-CN': '指令名「{name}」不合法：只能用字母、数字、「_」「-」与「.」（「.」不能打头），例如 session.set。',
  },
  AALIS_COMMAND_PAGE_INVALID: {
    en: 'Page "{page}" is not a page number. Write -p with a whole number from 1, e.g. -p 2.',
    'zh-CN': '「{page}」不是页码。-p 后面写从 1 起的整数，例如 -p 2。',
  },
  AALIS_COMMAND_PAGE_OUT_OF_RANGE: {
    en: 'There is no page {page}: there are {pages} page(s). Write -p with a number from 1 to {pages}.',
    'zh-CN': '没有第 {page} 页：一共 {pages} 页。-p 后面写 1 到 {pages} 之间的数。',
  },
});

/** The code of every parse failure; its message depends on what went wrong (see commandParseError). */
export const COMMAND_PARSE_CODE = 'AALIS_COMMAND_PARSE';

const parseTexts = defineCatalogue({
  'zh-CN': {
    'commands.parse.unterminatedQuote':
      '指令解析失败：第 {position} 个字符处的 {quote} 没有闭合。补上闭合的 {quote}，或用反斜杠转义它（\\{quote}）。',
    'commands.parse.danglingEscape': '指令解析失败：末尾的反斜杠后面没有字符。去掉它，或写成 \\\\ 表示反斜杠本身。',
    'commands.parse.notCommand': '指令解析失败：「{text}」不是指令。指令以 / 开头，后接指令名，例如 /help。',
  },
  en: {
    'commands.parse.unterminatedQuote':
      'Cannot parse the command: the {quote} at character {position} is never closed. Close it, or escape it with a backslash (\\{quote}).',
    'commands.parse.danglingEscape':
      'Cannot parse the command: the trailing backslash escapes nothing. Remove it, or write \\\\ for a backslash.',
    'commands.parse.notCommand':
      'Cannot parse the command: "{text}" is not a command. A command starts with / and a name, e.g. /help.',
  },
});

export type CommandParseProblem = 'unterminatedQuote' | 'danglingEscape' | 'notCommand';

/** A coded AALIS_COMMAND_PARSE error whose message names the problem and how to fix it. */
export function commandParseError(
  problem: CommandParseProblem,
  params: Record<string, string | number> = {},
): AalisError {
  const key = `commands.parse.${problem}` as keyof (typeof parseTexts)['en'];
  return new AalisError(COMMAND_PARSE_CODE, textRef(key, params), { details: { problem, ...params } });
}

export function isCommandParseError(value: unknown): value is AalisError {
  return AalisError.hasCode(value, COMMAND_PARSE_CODE);
}

/** How an error is shown as a command reply: the localized message followed by its code, in the locale's brackets. */
export function formatCommandError(error: AalisError, locale: Locale): string {
  return withErrorCode(error.localized(locale), error.code, locale);
}
