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

/** `t(key, params)` for a catalogue key through `i18n`: how a plugin's tools, replies and notices translate. */
export function translatorOf(i18n: {
  t(text: TextRef): string;
}): (key: string, params?: Record<string, string | number>) => string {
  return (key, params) => i18n.t(textRef(key, params));
}

export function isTextRef(value: unknown): value is TextRef {
  return typeof value === 'object' && value !== null && typeof (value as TextRef).key === 'string';
}

/** Renders a text (or passes a plain string through) in the given locale, filling `{name}` placeholders. */
export function translate(text: string | TextRef, locale: Locale = DEFAULT_LOCALE): string {
  if (typeof text === 'string') return text;
  const texts = registry.get(text.key);
  const template = texts?.get(locale) ?? texts?.get(DEFAULT_LOCALE) ?? text.key;
  return fillPlaceholders(template, text.params, locale);
}

/**
 * Replaces each `{name}` (name: letters, digits, `_`) whose parameter is set; others stay as written. A scan, not a
 * regular expression with a callback per match: several texts per turn are filled; it gives what
 * `template.replace(/\{(\w+)\}/g, …)` gave (i18n.test.ts checks the two against each other).
 *
 * Also ICU MessageFormat's plural choice, `{count, plural, =0 {no facts} one {# fact} other {# facts}}`: an exact
 * `=N` first, then the category `Intl.PluralRules(locale)` gives, then `other`; `#` is the number. It is only parsed
 * where a name is followed by a comma, so templates without choices cost what they did. A malformed choice (no
 * `other`, unbalanced braces, another keyword) stays as written. No ICU apostrophe quoting: English texts use `'`.
 */
export function fillPlaceholders(
  template: string,
  params?: Readonly<Record<string, string | number>>,
  locale: Locale = DEFAULT_LOCALE,
): string {
  if (!params) return template;
  let open = template.indexOf('{');
  if (open < 0) return template;
  let result = '';
  let copied = 0;
  while (open >= 0) {
    let end = open + 1;
    while (end < template.length && isWordCharacter(template.charCodeAt(end))) end++;
    const next = template.charCodeAt(end);
    if (end > open + 1 && next === CLOSE_BRACE) {
      const value = params[template.slice(open + 1, end)];
      if (value !== undefined) {
        result += template.slice(copied, open) + String(value);
        copied = end + 1;
      }
      open = template.indexOf('{', end + 1);
    } else if (end > open + 1 && (next === COMMA || isSpace(next))) {
      const choice = parsePluralChoice(template, end);
      if (choice) {
        const value = params[template.slice(open + 1, end)];
        if (value !== undefined) {
          result += template.slice(copied, open) + renderPluralChoice(choice.branches, value, params, locale);
          copied = choice.end;
        }
        open = template.indexOf('{', choice.end);
      } else {
        open = template.indexOf('{', open + 1);
      }
    } else {
      open = template.indexOf('{', open + 1);
    }
  }
  return copied === 0 ? template : result + template.slice(copied);
}

interface PluralBranch {
  readonly selector: string;
  readonly text: string;
}

/** Parses `, plural, sel {text} … }` from `from` (just after the name); the end is past the closing brace. */
function parsePluralChoice(
  template: string,
  from: number,
): { readonly branches: readonly PluralBranch[]; readonly end: number } | undefined {
  let at = skipSpaces(template, from);
  if (template.charCodeAt(at) !== COMMA) return undefined;
  at = skipSpaces(template, at + 1);
  if (!template.startsWith('plural', at)) return undefined;
  at = skipSpaces(template, at + 6);
  if (template.charCodeAt(at) !== COMMA) return undefined;
  const branches: PluralBranch[] = [];
  at = skipSpaces(template, at + 1);
  while (template.charCodeAt(at) !== CLOSE_BRACE) {
    const selectorStart = at;
    if (template.charCodeAt(at) === EQUALS) {
      at++;
      while (isDigit(template.charCodeAt(at))) at++;
      if (at === selectorStart + 1) return undefined;
    } else {
      while (isWordCharacter(template.charCodeAt(at))) at++;
      if (at === selectorStart) return undefined;
    }
    const selector = template.slice(selectorStart, at);
    at = skipSpaces(template, at);
    if (template.charCodeAt(at) !== OPEN_BRACE) return undefined;
    const textStart = at + 1;
    let depth = 1;
    while (depth > 0) {
      at++;
      if (at >= template.length) return undefined;
      const code = template.charCodeAt(at);
      if (code === OPEN_BRACE) depth++;
      else if (code === CLOSE_BRACE) depth--;
    }
    branches.push({ selector, text: template.slice(textStart, at) });
    at = skipSpaces(template, at + 1);
    if (at >= template.length) return undefined;
  }
  if (!branches.some((branch) => branch.selector === 'other')) return undefined;
  return { branches, end: at + 1 };
}

function renderPluralChoice(
  branches: readonly PluralBranch[],
  value: string | number,
  params: Readonly<Record<string, string | number>>,
  locale: Locale,
): string {
  // A string counts only when it is wholly a number: '1,234' (a number formatted for reading) takes `other`.
  const count = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
  const exact = `=${count}`;
  const category = Number.isFinite(count) ? pluralRules(locale).select(count) : 'other';
  const branch =
    branches.find((candidate) => candidate.selector === exact) ??
    branches.find((candidate) => candidate.selector === category) ??
    branches.find((candidate) => candidate.selector === 'other')!;
  return fillPlaceholders(replaceOuterHashes(branch.text, String(value)), params, locale);
}

/** `#` stands for the number, except inside a nested choice, whose own `#` is its own number. */
function replaceOuterHashes(text: string, number: string): string {
  if (!text.includes('#')) return text;
  let result = '';
  let depth = 0;
  for (const character of text) {
    if (character === '{') depth++;
    else if (character === '}') depth--;
    result += character === '#' && depth === 0 ? number : character;
  }
  return result;
}

const rulesByLocale = new Map<Locale, Intl.PluralRules>();

function pluralRules(locale: Locale): Intl.PluralRules {
  let rules = rulesByLocale.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    rulesByLocale.set(locale, rules);
  }
  return rules;
}

function skipSpaces(template: string, from: number): number {
  let at = from;
  while (isSpace(template.charCodeAt(at))) at++;
  return at;
}

/** Space, tab, line feed and carriage return: what may stand between the parts of a choice. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

const OPEN_BRACE = 0x7b;
const COMMA = 0x2c;
const EQUALS = 0x3d;
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
