// Sensitive values: wrapped by the page so that everything leaving it (snapshot text, tool results, confirmation
// requests, events) shows a redaction marker, while page code (handlers, confirm policies) gets the real value.
import { type Locale, mapPlainData } from '@plingjs/agent';
import { PageError } from './errors.js';
import { pageTexts } from './texts.js';

const SENSITIVE = Symbol.for('@plingjs/core.Sensitive');
const LABEL_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export class Sensitive<T = unknown> {
  readonly label: string | undefined;
  readonly #value: T;
  /** `locale`: language of the INVALID_SENSITIVE_LABEL error (default 'zh-CN'). */
  constructor(value: T, label?: string, locale?: Locale) {
    if (label !== undefined && !LABEL_PATTERN.test(label)) {
      throw new PageError(
        'INVALID_SENSITIVE_LABEL',
        pageTexts(locale).errors.invalidSensitiveLabel(JSON.stringify(label)),
      );
    }
    this.#value = value;
    this.label = label;
    Object.defineProperty(this, SENSITIVE, { value: true });
  }

  /** The real value, for page code only. */
  reveal(): T {
    return this.#value;
  }

  /** The marker: even an accidental JSON.stringify or string conversion leaks nothing. */
  toJSON(): string {
    return redactionMarker(this.label);
  }

  toString(): string {
    return redactionMarker(this.label);
  }
}

/** Wraps a value that must not leave the page; `label` names it in the marker (`[redacted:label]`). */
export function sensitive<T>(value: T, label?: string, locale?: Locale): Sensitive<T> {
  return new Sensitive(value, label, locale);
}

/** True for a sensitive wrapper, also one created by another copy of this package. */
export function isSensitive(value: unknown): value is Sensitive {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SENSITIVE] === true;
}

export function redactionMarker(label?: string): string {
  return label === undefined ? '[redacted]' : `[redacted:${label}]`;
}

/**
 * A copy of `value` with every sensitive wrapper replaced by its marker. Walks plain objects and arrays; other
 * objects (dates, class instances) are kept as they are. The original is never mutated; a cycle becomes
 * '[circular]'.
 */
export function redact(value: unknown): unknown {
  return mapSensitive(value, (wrapper) => redactionMarker(wrapper.label));
}

/** A copy of `value` with every sensitive wrapper replaced by its real value (for page code). */
export function reveal(value: unknown): unknown {
  return mapSensitive(value, (wrapper) => wrapper.reveal());
}

function mapSensitive(value: unknown, replace: (wrapper: Sensitive) => unknown): unknown {
  return mapPlainData(value, (leaf) => (isSensitive(leaf) ? replace(leaf) : leaf));
}
