// The way back from a marker to the real value. The model only ever sees `[redacted:label]`; when it passes such a
// marker as an argument (a whole string, e.g. `{ to: '[redacted:email]' }`), the action's handler receives the
// labelled value the page currently shows under that label. Unlabelled values can never be referred to.
import { isPlainObject, type Locale, type Redact } from '@plingjs/agent';
import { PageError } from './errors.js';
import { isSensitive, redactionMarker, type Sensitive } from './sensitive.js';
import { pageTexts } from './texts.js';

const AMBIGUOUS = Symbol('ambiguous');

/** Marker → real value, built from the values the page currently shows. */
export type SensitiveVault = ReadonlyMap<string, unknown>;

/** Calls `visit` for every Sensitive wrapper in `values`, walking plain objects and arrays once each. */
function forEachSensitive(values: readonly unknown[], visit: (value: Sensitive<unknown>) => void): void {
  const seen = new Set<object>();
  const walk = (value: unknown): void => {
    if (isSensitive(value)) {
      visit(value);
      return;
    }
    if (!Array.isArray(value) && !isPlainObject(value)) return;
    if (seen.has(value)) return;
    seen.add(value);
    for (const item of Array.isArray(value) ? value : Object.values(value)) walk(item);
  };
  for (const value of values) walk(value);
}

export function collectSensitive(values: readonly unknown[]): SensitiveVault {
  const vault = new Map<string, unknown>();
  forEachSensitive(values, (value) => {
    if (value.label === undefined) return;
    const marker = redactionMarker(value.label);
    const real = value.reveal();
    if (!vault.has(marker)) vault.set(marker, real);
    else if (!Object.is(vault.get(marker), real)) vault.set(marker, AMBIGUOUS);
  });
  return vault;
}

/**
 * A copy of the model's arguments with known markers replaced by the real values; the input is not mutated.
 * `locale`: language of the SENSITIVE_AMBIGUOUS error (default 'zh-CN').
 */
export function restoreSensitive(value: unknown, vault: SensitiveVault, locale?: Locale): unknown {
  if (typeof value === 'string') {
    if (!vault.has(value)) return value;
    const real = vault.get(value);
    if (real === AMBIGUOUS) {
      throw new PageError('SENSITIVE_AMBIGUOUS', pageTexts(locale).errors.sensitiveAmbiguous(value));
    }
    return real;
  }
  if (Array.isArray(value)) return value.map((item) => restoreSensitive(item, vault, locale));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, restoreSensitive(item, vault, locale)]));
  }
  return value;
}

/** Values shorter than this are not scrubbed from text (a one- or two-character value would garble messages). */
export const MIN_SCRUB_LENGTH = 3;

/**
 * The text with every sensitive value found in `values` (walked like the snapshot: plain objects and arrays,
 * labelled or not) replaced by its marker. For text the page does not control, such as a handler's error message,
 * which reaches the model as is. Strings, numbers and bigints are matched by their text, longest first.
 */
export function scrubSensitive(text: string, values: readonly unknown[]): string {
  return compileScrubber(values)(text);
}

/**
 * scrubSensitive with the values read once: the returned function replaces them in any number of texts (the
 * runtime redacts every request, event and result with one, built when it needs it).
 */
export function compileScrubber(values: readonly unknown[]): Redact {
  const replacements = new Map<string, string>();
  forEachSensitive(values, (value) => {
    const real = value.reveal();
    if (typeof real !== 'string' && typeof real !== 'number' && typeof real !== 'bigint') return;
    const needle = String(real);
    if (needle.length < MIN_SCRUB_LENGTH) return;
    const marker = redactionMarker(value.label);
    // The value as written, and as it reads inside JSON text (a tool result, a request body) and inside JSON
    // that was itself put into a JSON string: quotes, backslashes and control characters come escaped there.
    const escaped = JSON.stringify(needle).slice(1, -1);
    const twice = JSON.stringify(escaped).slice(1, -1);
    for (const form of [needle, escaped, twice]) if (!replacements.has(form)) replacements.set(form, marker);
  });
  const ordered = [...replacements].sort(([a], [b]) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  const scrub = (text: string) => {
    let scrubbed = text;
    for (const [needle, marker] of ordered) {
      if (scrubbed.includes(needle)) scrubbed = scrubbed.split(needle).join(marker);
    }
    return scrubbed;
  };
  // The runtime holds back a streamed tail that could be the start of a value, so one split across deltas is caught.
  const pendingLength = (text: string) => {
    let pending = 0;
    for (const [needle] of ordered) {
      for (let length = Math.min(needle.length - 1, text.length); length > pending; length--) {
        if (text.endsWith(needle.slice(0, length))) {
          pending = length;
          break;
        }
      }
    }
    return pending;
  };
  return Object.assign(scrub, { pendingLength });
}
