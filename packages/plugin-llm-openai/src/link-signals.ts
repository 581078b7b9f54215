// One signal per call, aborted by the call's own signal or by the plugin's long-lived shutdown signal. The shutdown
// signal carries a single listener however many calls are in flight (one listener per call on it would pile up:
// Node warns past ten, MaxListenersExceededWarning); each call's controller joins a set that listener aborts.
// (AbortSignal.any would keep a dependent signal per call registered on the shutdown signal as well.)

export interface LinkedSignal {
  signal: AbortSignal | undefined;
  unlink(): void;
}

const nothing = () => {};

export class SignalLinker {
  private readonly calls = new Set<AbortController>();

  constructor(private readonly shared: AbortSignal | undefined) {
    shared?.addEventListener(
      'abort',
      () => {
        for (const controller of [...this.calls]) controller.abort(shared.reason);
      },
      { once: true },
    );
  }

  /** The call's signal linked with the shared one; `unlink()` when the call ends. */
  link(own: AbortSignal | undefined): LinkedSignal {
    const shared = this.shared;
    if (!own || !shared) return { signal: own ?? shared, unlink: nothing };
    const controller = new AbortController();
    if (own.aborted) controller.abort(own.reason);
    else if (shared.aborted) controller.abort(shared.reason);
    const abortOwn = () => controller.abort(own.reason);
    own.addEventListener('abort', abortOwn, { once: true });
    this.calls.add(controller);
    return {
      signal: controller.signal,
      unlink: () => {
        own.removeEventListener('abort', abortOwn);
        this.calls.delete(controller);
      },
    };
  }

  /** Calls linked and not yet unlinked (tests). */
  get linked(): number {
    return this.calls.size;
  }
}

/**
 * One signal aborted by either of two, listeners removed on unlink. For one-off links only: many calls sharing a
 * long-lived signal go through a SignalLinker, or each adds a listener to it.
 */
export function linkSignals({ first, second }: { first?: AbortSignal; second?: AbortSignal }): LinkedSignal {
  if (!first || !second) return { signal: first ?? second, unlink: nothing };
  const controller = new AbortController();
  const abortFirst = () => controller.abort(first.reason);
  const abortSecond = () => controller.abort(second.reason);
  if (first.aborted) abortFirst();
  else if (second.aborted) abortSecond();
  first.addEventListener('abort', abortFirst, { once: true });
  second.addEventListener('abort', abortSecond, { once: true });
  return {
    signal: controller.signal,
    unlink: () => {
      first.removeEventListener('abort', abortFirst);
      second.removeEventListener('abort', abortSecond);
    },
  };
}
