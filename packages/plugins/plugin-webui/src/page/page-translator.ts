// A texts file's one declaration: it registers the file's catalogue and gives back the translator of its keys, in the
// language the page shows at the time of the call. The keys are read from the catalogue, so a texts file names
// neither a key type nor the catalogue again.
import { defineCatalogue, type MessageCatalogue, translate } from '@aalis/core';
import { preferences } from './page-preferences.js';

export type TextParams = Record<string, string | number>;

export type PageTranslator<Key extends string> = (key: Key, params?: TextParams) => string;

/** The keys a translator takes: for a key built at run time (`tb(\`budget-page.kind.${kind}\` as TextKey<typeof tb>)`). */
export type TextKey<T> = T extends PageTranslator<infer Key> ? Key : never;

export function pageTranslator<C extends MessageCatalogue>(catalogue: C): PageTranslator<keyof C['en'] & string> {
  defineCatalogue(catalogue);
  return (key, params) => translate(params ? { key, params } : { key }, preferences.locale);
}
