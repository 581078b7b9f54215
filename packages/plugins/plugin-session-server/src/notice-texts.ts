// A notice the host wrote once (its catalogue text kept beside it) rendered in each language a page may have, so the
// page shows the one it reads in (docs/session-protocol.md 「Locale」), as a failed turn's `errors` and usage `labels`.
import { type Locale, translate } from '@aalis/core';
import { isNoticeText, type NoticeText, renderNoticeText } from '@aalis/schema-message';

export type LocaleTexts = { 'zh-CN': string; en: string };

/**
 * Undefined when there is nothing to render (no text, or not a notice text: a row stored before texts were kept) or
 * when a key is not in this process's catalogues (the plugin that wrote it is not loaded): the host's text stands then.
 */
export function noticeTexts(text: NoticeText | unknown): LocaleTexts | undefined {
  if (!isNoticeText(text) || !known(text)) return undefined;
  const render = (locale: Locale) => renderNoticeText(text, (flat) => translate(flat, locale));
  return { 'zh-CN': render('zh-CN'), en: render('en') };
}

/** Every key of the text has a catalogue entry (translate gives back an unknown key as it is). */
function known(text: NoticeText): boolean {
  if (translate({ key: text.key }, 'en') === text.key) return false;
  return Object.values(text.params ?? {}).every((param) => typeof param !== 'object' || known(param));
}
