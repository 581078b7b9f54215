// The phrases of config schema issues (what was expected, what was received), in zh-CN and en.
import { defineCatalogue, type Locale, textRef, translate } from './i18n.js';

defineCatalogue({
  'zh-CN': {
    'core.schema.string': '字符串',
    'core.schema.nonEmptyString': '非空字符串',
    'core.schema.number': '数',
    'core.schema.integer': '整数',
    'core.schema.boolean': 'true 或 false',
    'core.schema.oneOf': '{values} 之一',
    'core.schema.arrayOf': '由「{item}」组成的数组',
    'core.schema.object': '对象',
    'core.schema.recordOf': '值为「{value}」的对象',
    'core.schema.any': '任意值',
    'core.schema.unknownKey': '没有这个键（未知的键）',
    'core.schema.received.nothing': '没有值',
    'core.schema.received.array': '数组 {json}',
    'core.schema.received.object': '对象 {json}',
    'core.schema.received.string': '字符串 {json}',
    'core.schema.received.number': '数 {value}',
    'core.schema.received.boolean': '布尔值 {value}',
  },
  en: {
    'core.schema.string': 'a string',
    'core.schema.nonEmptyString': 'a non-empty string',
    'core.schema.number': 'a number',
    'core.schema.integer': 'an integer',
    'core.schema.boolean': 'true or false',
    'core.schema.oneOf': 'one of {values}',
    'core.schema.arrayOf': 'an array of {item}',
    'core.schema.object': 'an object',
    'core.schema.recordOf': 'an object whose values are {value}',
    'core.schema.any': 'any value',
    'core.schema.unknownKey': 'no such field (unknown key)',
    'core.schema.received.nothing': 'nothing',
    'core.schema.received.array': 'an array ({json})',
    'core.schema.received.object': 'an object ({json})',
    'core.schema.received.string': 'the string {json}',
    'core.schema.received.number': 'number {value}',
    'core.schema.received.boolean': 'boolean {value}',
  },
});

/** A phrase of the schema catalogue in a locale. */
export function phrase(key: string, locale: Locale, params?: Record<string, string>): string {
  return translate(textRef(`core.schema.${key}`, params), locale);
}
