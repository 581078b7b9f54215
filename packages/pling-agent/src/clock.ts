// Time as the runtime sees it: swappable so tests never wait for real.
import { PlingError } from './errors.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with a CANCELLED PlingError when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(cancelled());
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export function cancelled(): PlingError {
  return new PlingError({ code: 'CANCELLED', message: 'The run was cancelled by session.cancel() or reset().' });
}
