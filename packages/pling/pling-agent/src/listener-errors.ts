// A listener that throws (a host's onEvent, a view's subscriber) must not break the run that called it: the error
// is caught where listeners are called and logged once per listener (code LISTENER_FAILED), so a listener that
// fails on every event does not flood the console; it keeps receiving events.
import { type Locale, textsFor } from './texts.js';

const reported = new WeakSet<object>();

export interface ReportListenerErrorOptions {
  /** The listener that threw: reported only the first time. */
  listener: object;
  error: unknown;
  locale?: Locale | undefined;
  /** Replaces the page's sensitive values in the logged text. */
  redact?: ((text: string) => string) | undefined;
}

export function reportListenerError({ listener, error, locale, redact }: ReportListenerErrorOptions): void {
  if (reported.has(listener)) return;
  reported.add(listener);
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const text = `LISTENER_FAILED: ${textsFor(locale).errors.listenerFailed(detail)}`;
  // The one console line of the runtime: a developer has to see a broken listener, and there is no other channel
  // that the broken listener itself would not be part of.
  console.error(redact ? redact(text) : text);
}

/** Calls `listener(value)`, reporting (once) instead of throwing when it fails. */
export function callListener<T>(
  listener: (value: T) => void,
  value: T,
  options: Omit<ReportListenerErrorOptions, 'listener' | 'error'> = {},
): void {
  try {
    listener(value);
  } catch (error) {
    reportListenerError({ listener, error, ...options });
  }
}
