// Time as the runtime sees it: swappable so tests never wait for real.
import { PlingError } from './errors.js';
import { type Locale, textsFor } from './texts.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with a CANCELLED PlingError when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export function cancelled(locale?: Locale): PlingError {
  return new PlingError({ code: 'CANCELLED', message: textsFor(locale).errors.cancelled });
}

/** The session aborts with a CANCELLED PlingError in its locale; keep that one rather than a default-locale copy. */
function abortReason(signal: AbortSignal | undefined): PlingError {
  return PlingError.isInstance(signal?.reason) ? signal.reason : cancelled();
}
