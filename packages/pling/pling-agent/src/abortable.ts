// Waiting on host code (a page action, a tool hook, a budget check, the page prompt) only until the run is cancelled:
// cancel() must end the run even when that code ignores its signal and never settles, or every later send() would
// wait behind it. The host code itself is not stopped; what it settles with afterwards is ignored.
import { cancelled } from './clock.js';
import { PlingError } from './errors.js';

/** `value` as a promise that also rejects, with the signal's CANCELLED reason, as soon as `signal` aborts. */
export function abortable<T>(value: T | PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (!isThenable(value)) return Promise.resolve(value);
  if (signal.aborted) return Promise.reject(reasonOf(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reasonOf(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(value).then(
      (settled) => {
        signal.removeEventListener('abort', onAbort);
        resolve(settled);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function reasonOf(signal: AbortSignal): PlingError {
  return PlingError.isInstance(signal.reason) ? signal.reason : cancelled();
}
