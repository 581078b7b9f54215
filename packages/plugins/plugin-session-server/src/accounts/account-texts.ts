// The session server's texts for accounts, password login, usage and logs (zh-CN and en): what a parameter should
// have been, and the words that go into the coded errors.
import { defineCatalogue } from '@aalis/core';

export const accountTexts = defineCatalogue({
  'zh-CN': {
    'sessionServer.expected.accountId': '1 到 64 个字母、数字、“.”、“_” 或 “-”',
    'sessionServer.expected.level': '0 到 1000000 的整数',
    'sessionServer.expected.integer': '{min} 到 {max} 的整数',
    'sessionServer.expected.password': '字符串（密码）',
    'sessionServer.expected.displayName': '不超过 {max} 个字符的非空字符串，或 null',
    'sessionServer.account.what.displayName': '显示名',
    'sessionServer.account.what.delete': '存在（不能删除）',
    'sessionServer.account.what.owner': '等级（owner 高于一切等级）',
  },
  en: {
    'sessionServer.expected.accountId': '1 to 64 letters, digits, ".", "_" or "-"',
    'sessionServer.expected.level': 'an integer from 0 to 1000000',
    'sessionServer.expected.integer': 'an integer from {min} to {max}',
    'sessionServer.expected.password': 'a string (the password)',
    'sessionServer.expected.displayName': 'a non-empty string of at most {max} characters, or null',
    'sessionServer.account.what.displayName': 'display name',
    'sessionServer.account.what.delete': 'existence (it cannot be deleted)',
    'sessionServer.account.what.owner': 'level (an owner is above every level)',
  },
});
