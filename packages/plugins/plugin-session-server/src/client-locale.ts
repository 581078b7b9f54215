// The locale of one connection (docs/session-protocol.md 「Locale」): a client's BCP 47 tag matched by language to the
// locales the server writes (zh-CN, en); anything else, or nothing, keeps the host's.
import type { Locale } from '@aalis/core';

export function clientLocale(tag: unknown, fallback: Locale): Locale {
  if (typeof tag !== 'string') return fallback;
  const language = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (language === 'zh') return 'zh-CN';
  if (language === 'en') return 'en';
  return fallback;
}

/** The first language of an Accept-Language header the server writes (by q order), else the fallback. */
export function acceptedLocale(header: string | undefined, fallback: Locale): Locale {
  if (!header) return fallback;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const written = ranked.find(({ tag }) => ['zh', 'en'].includes(tag.trim().toLowerCase().split(/[-_]/)[0] ?? ''));
  if (written) return clientLocale(written.tag, fallback);
  return fallback;
}
