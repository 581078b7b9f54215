// A texts file's one declaration, `export const tX = pageTranslator(defineCatalogue({ … }))`: the translator of the
// registered catalogue's keys, in the language the page shows at the time of the call. The keys are read from the
// catalogue, so a texts file names neither a key type nor the catalogue again.
import { type MessageCatalogue, translate } from '@aalis/core';
import { preferences } from './page-preferences.js';

export type TextParams = Record<string, string | number>;

export type PageTranslator<Key extends string> = (key: Key, params?: TextParams) => string;

/** The keys a translator takes: for a key built at run time (`tb(\`budget-page.kind.${kind}\` as TextKey<typeof tb>)`). */
export type TextKey<T> = T extends PageTranslator<infer Key> ? Key : never;

/** `catalogue` (already registered by defineCatalogue) gives the translator its keys; the texts are looked up by key. */
export function pageTranslator<C extends MessageCatalogue>(_catalogue: C): PageTranslator<keyof C['en'] & string> {
  return (key, params) => translate(params ? { key, params } : { key }, preferences.locale);
}
