// The coded errors of the profiles service: what was wrong and how to fix it.
import { defineErrors } from '@aalis/core';

export const profileErrors = defineErrors({
  AALIS_PROFILE_FACT_EMPTY: {
    en: 'A fact needs some text. Write it as one sentence, e.g. "likes jasmine tea".',
    'zh-CN': '事实不能为空。请用一句话写清，例如「喜欢茉莉花茶」。',
    statusCode: 400,
  },
  AALIS_PROFILE_FACT_TOO_LONG: {
    en: 'The fact is too long ({length} characters); shorten it to at most {max}.',
    'zh-CN': '事实太长（{length} 字），请缩短到 {max} 字以内。',
    statusCode: 400,
  },
  AALIS_PROFILE_UNKNOWN: {
    en: 'There is no remembered fact with the id "{id}"; it may have been forgotten already. Reload the list.',
    'zh-CN': '没有 id 为「{id}」的档案事实，可能已经忘掉了。请重新载入列表。',
    statusCode: 404,
  },
});
