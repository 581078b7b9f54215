// Mistakes in using an adapter (no Pling instance in reach, a composable outside any scope) happen before any
// Pling — and so any locale — is known: their PageError carries the text in both languages, zh-CN first.
import { PageError, type PageErrorCode } from './errors.js';
import { type PageTexts, pageTexts } from './texts.js';

export function adapterUsageError(
  code: Extract<PageErrorCode, 'PLING_NOT_PROVIDED' | 'NO_ACTIVE_SCOPE'>,
  text: (errors: PageTexts['errors']) => string,
): PageError {
  return new PageError(code, `${text(pageTexts('zh-CN').errors)}\n${text(pageTexts('en').errors)}`);
}
