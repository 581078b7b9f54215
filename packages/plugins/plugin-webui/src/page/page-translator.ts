// The translator each texts file exports: its own keys, in the language the page shows at the time of the call.
import { translate } from '@aalis/core';
import { preferences } from './page-preferences.js';

export type TextParams = Record<string, string | number>;

export function pageTranslator<Key extends string>(): (key: Key, params?: TextParams) => string {
  return (key, params) => translate(params ? { key, params } : { key }, preferences.locale);
}
