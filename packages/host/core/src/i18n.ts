// Message catalogues: every user- or model-visible fixed text is looked up here, in zh-CN (the specification's
// wording) and en. Catalogues are plain data so packages can declare them without depending on anything else.

export type Locale = 'zh-CN' | 'en';
export const LOCALES: readonly Locale[] = ['zh-CN', 'en'];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

/** A catalogue: for each locale, message key → text with `{name}` placeholders. */
export type MessageCatalogue = { readonly [L in Locale]: Readonly<Record<string, string>> };

/** A reference to a catalogue text, rendered in the reader's locale. */
export interface TextRef {
  readonly key: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

const registry = new Map<string, Map<Locale, string>>();

/** Registers a catalogue (call at module load). Keys must be unique across catalogues; a clash throws. */
export function defineCatalogue<C extends MessageCatalogue>(catalogue: C): C {
  const keys = new Set(LOCALES.flatMap((locale) => Object.keys(catalogue[locale])));
  for (const key of keys) {
    for (const locale of LOCALES) {
      if (catalogue[locale][key] === undefined) {
        throw new Error(`Message catalogue: key "${key}" has no ${locale} text; every key needs zh-CN and en.`);
      }
    }
    const existing = registry.get(key);
    const texts = new Map(LOCALES.map((locale) => [locale, catalogue[locale][key]!] as const));
    if (existing && LOCALES.some((locale) => existing.get(locale) !== texts.get(locale))) {
      throw new Error(`Message catalogue: key "${key}" is defined twice with different texts.`);
    }
    registry.set(key, texts);
  }
  return catalogue;
}

/** Every registered text of one locale, key → template: for checks that run over all catalogues at once. */
export function registeredTexts(locale: Locale): ReadonlyMap<string, string> {
  const texts = new Map<string, string>();
  for (const [key, byLocale] of registry) texts.set(key, byLocale.get(locale) ?? '');
  return texts;
}

export function textRef(key: string, params?: Record<string, string | number>): TextRef {
  return params ? { key, params } : { key };
}

export function isTextRef(value: unknown): value is TextRef {
  return typeof value === 'object' && value !== null && typeof (value as TextRef).key === 'string';
}

/** Renders a text (or passes a plain string through) in the given locale, filling `{name}` placeholders. */
export function translate(text: string | TextRef, locale: Locale = DEFAULT_LOCALE): string {
  if (typeof text === 'string') return text;
  const texts = registry.get(text.key);
  const template = texts?.get(locale) ?? texts?.get(DEFAULT_LOCALE) ?? text.key;
  return fillPlaceholders(template, text.params);
}

/**
 * Replaces each `{name}` (name: letters, digits, `_`) whose parameter is set; others stay as written. A scan, not a
 * regular expression with a callback per match: several texts per turn are filled; it gives what
 * `template.replace(/\{(\w+)\}/g, …)` gave (i18n.test.ts checks the two against each other).
 */
export function fillPlaceholders(template: string, params?: Readonly<Record<string, string | number>>): string {
  if (!params) return template;
  let open = template.indexOf('{');
  if (open < 0) return template;
  let result = '';
  let copied = 0;
  while (open >= 0) {
    let end = open + 1;
    while (end < template.length && isWordCharacter(template.charCodeAt(end))) end++;
    if (end > open + 1 && template.charCodeAt(end) === CLOSE_BRACE) {
      const value = params[template.slice(open + 1, end)];
      if (value !== undefined) {
        result += template.slice(copied, open) + String(value);
        copied = end + 1;
      }
      open = template.indexOf('{', end + 1);
    } else {
      open = template.indexOf('{', open + 1);
    }
  }
  return copied === 0 ? template : result + template.slice(copied);
}

const CLOSE_BRACE = 0x7d;

/** `\w` of a regular expression without the u flag: A–Z, a–z, 0–9 and `_`. */
function isWordCharacter(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f
  );
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
