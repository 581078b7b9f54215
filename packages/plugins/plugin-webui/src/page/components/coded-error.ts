// A coded error as the reader sees it: the sentence (what happened and how to fix it, in the page's language),
// then the code in small print for a bug report — never the bare code as the message.
import { h, type VNode } from 'vue';
import { splitErrorCode } from '../model/error-line.js';
import { t } from '../page-preferences.js';

export function codedErrorNodes(message: string, code: string | undefined): (VNode | string)[] {
  const sentence = message.trim() === '' && code ? t('webui-page.errorUnknown') : message;
  return code
    ? [
        sentence,
        ' ',
        h('small', { class: 'error-code', 'data-testid': 'error-code' }, t('webui-page.errorCode', { code })),
      ]
    : [sentence];
}

/** An error that came as one line of text (the sentence, then its code in brackets): the same, code in small print. */
export function codedErrorLine(text: string): (VNode | string)[] {
  const { message, code } = splitErrorCode(text);
  return codedErrorNodes(message, code);
}

/** A view's error as an alert paragraph (read out when it appears), or nothing when there is none. */
export function errorAlert(text: string | undefined): VNode | null {
  return text ? h('p', { class: 'setting-error', role: 'alert' }, codedErrorLine(text)) : null;
}
