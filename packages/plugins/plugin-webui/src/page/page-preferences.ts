// The reader's own choices, kept in localStorage: language (zh-CN / en; until one is picked, the browser's
// language, else the host's locale) and appearance (system / light / dark). Reactive, so a change re-renders every text at once.
import type { Locale } from '@aalis/core';
import { reactive } from 'vue';
import { browserLocale } from './browser-locale.js';
import { type PageTextKey, translator } from './texts.js';

export type Theme = 'auto' | 'light' | 'dark';

const LOCALE_KEY = 'aalis.webui.locale';
const THEME_KEY = 'aalis.webui.theme';

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled: the choice lasts for this page only
  }
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // see stored()
  }
}

const savedLocale = stored(LOCALE_KEY);
const savedTheme = stored(THEME_KEY);

/** What the browser asks for (undefined: neither zh nor en, or no browser), read once at load. */
export const browserLanguage: Locale | undefined =
  typeof navigator === 'undefined' ? undefined : browserLocale(navigator.languages ?? [navigator.language]);

export const preferences = reactive<{ locale: Locale; theme: Theme; chosenLocale: boolean }>({
  locale: savedLocale === 'en' || savedLocale === 'zh-CN' ? savedLocale : (browserLanguage ?? 'zh-CN'),
  chosenLocale: savedLocale === 'en' || savedLocale === 'zh-CN',
  theme: savedTheme === 'light' || savedTheme === 'dark' ? savedTheme : 'auto',
});

/** The server's answer to the language asked for (the browser's) applies until the reader picks one. */
export function hostLocale(locale: Locale | undefined): void {
  if (locale && !preferences.chosenLocale) preferences.locale = locale;
}

export function setLocale(locale: Locale): void {
  preferences.locale = locale;
  preferences.chosenLocale = true;
  store(LOCALE_KEY, locale);
}

export function setTheme(theme: Theme): void {
  preferences.theme = theme;
  store(THEME_KEY, theme);
}

/** A page text in the reader's language (reactive inside render functions). */
export function t(key: PageTextKey, params?: Record<string, string | number>): string {
  return translator(preferences.locale)(key, params);
}
