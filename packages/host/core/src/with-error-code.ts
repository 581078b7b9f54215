// A coded error as one line of text, for readers that get plain text (a chat platform, the terminal, a command's
// answer): the sentence, then its code in the brackets of the reader's language.
import type { Locale } from './i18n.js';

/**
 * zh-CN: full-width brackets with nothing before them (「…。（AALIS_X）」); en: half-width after a space
 * ("…. (AALIS_X)"). Where markup can be shown (the WebUI), the code goes in small print beside the sentence instead.
 */
export function withErrorCode(message: string, code: string, locale: Locale): string {
  return locale === 'zh-CN' ? `${message}（${code}）` : `${message} (${code})`;
}
