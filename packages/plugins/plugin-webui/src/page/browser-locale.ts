// The page's language before the reader picks one: the first of the browser's languages the page is written in
// (zh-CN or en), as Open WebUI and LobeChat do; the host's locale only when the browser asks for neither.
import type { Locale } from '@aalis/core';

/** The first tag of `languages` (BCP 47, most preferred first) matched by language to zh-CN or en. */
export function browserLocale(languages: readonly string[]): Locale | undefined {
  for (const tag of languages) {
    const language = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (language === 'zh') return 'zh-CN';
    if (language === 'en') return 'en';
  }
  return undefined;
}
