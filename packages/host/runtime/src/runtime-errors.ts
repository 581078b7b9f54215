// The coded errors of @aalis/runtime. Codes are never reused.
import { defineErrors } from '@aalis/core';

export const runtimeErrors = defineErrors({
  AALIS_RUNTIME_CONFIG_INVALID: {
    en: 'The configuration has {count} problem(s):\n{problems}',
    'zh-CN': '配置有 {count} 处问题：\n{problems}',
  },
  AALIS_RUNTIME_ESSENTIAL_INACTIVE: {
    en: 'Required plugins did not start ({plugins}); Aalis cannot run. See the messages above.',
    'zh-CN': '必需的插件没有启动（{plugins}），Aalis 无法运行。见上面的信息。',
  },
  AALIS_RUNTIME_DATA_DIR_UNUSABLE: {
    en: 'The data directory {dir} cannot be used: {reason}. Set dataDir (or AALIS_DATA_DIR) to a writable directory.',
    'zh-CN': '数据目录 {dir} 用不了：{reason}。请把 dataDir（或 AALIS_DATA_DIR）设成一个可写的目录。',
  },
  AALIS_RUNTIME_PREFERENCES_NOT_SHARED: {
    en: 'The service preference change ({keys}) could not be saved in the database: {reason}. It applies on this process only; the other processes and the next start keep the stored preferences. Check that the database is reachable, then set the preference again.',
    'zh-CN':
      '服务偏好的改动（{keys}）没能存进数据库：{reason}。它只在本进程生效；其他进程和下次启动仍用库里存的偏好。请确认数据库连得上，再设一次这个偏好。',
  },
  AALIS_CALC_UNEXPECTED: {
    en: 'Unexpected "{token}" at position {position} of the expression. Write it like 2*(3+4)^2.',
    'zh-CN': '表达式第 {position} 个字符处的「{token}」读不懂。写法如 2*(3+4)^2。',
  },
  AALIS_CALC_EXPECTED: {
    en: 'Expected "{token}" at position {position} of the expression.',
    'zh-CN': '表达式第 {position} 个字符处应是「{token}」。',
  },
  AALIS_CALC_INCOMPLETE: {
    en: 'The expression is empty or ends too early. Write it like 2*(3+4)^2.',
    'zh-CN': '表达式是空的或没写完。写法如 2*(3+4)^2。',
  },
  AALIS_CALC_UNKNOWN_NAME: {
    en: 'Unknown name "{name}". Known: {known}.',
    'zh-CN': '不认识「{name}」。认识的有：{known}。',
  },
  AALIS_CALC_ARGUMENTS: {
    en: '{name} takes {expected} argument(s), got {received}.',
    'zh-CN': '{name} 需要 {expected} 个参数，给了 {received} 个。',
  },
  AALIS_CALC_NOT_FINITE: {
    en: 'The result is not a finite number (division by zero, or out of range).',
    'zh-CN': '结果不是有限的数（除以零或超出范围）。',
  },
  AALIS_TIME_ZONE_UNKNOWN: {
    en: 'Unknown time zone "{zone}". Use an IANA name such as Europe/Paris or Asia/Shanghai.',
    'zh-CN': '不认识的时区「{zone}」。请用 IANA 名称，例如 Asia/Shanghai 或 Europe/Paris。',
  },
});
