// One signal per call, aborted by the call's own signal or by the plugin's long-lived shutdown signal. The shutdown
// signal carries a single listener however many calls are in flight (one listener per call on it would pile up:
// Node warns past ten, MaxListenersExceededWarning); each call's controller joins a set that listener aborts.
// (AbortSignal.any would keep a dependent signal per call registered on the shutdown signal as well.) Calls with the
// same own signal (a turn's model calls) share one linked controller and one listener on their own signal.

export interface LinkedSignal {
  signal: AbortSignal | undefined;
  unlink(): void;
}

const nothing = () => {};

export class SignalLinker {
  /** The linked controllers of calls in flight, with how many calls share each (calls with the same own signal). */
  private readonly calls = new Map<AbortController, number>();
  /**
   * The linked controller per caller signal, kept past its calls: a turn's calls pass the same signal, and an
   * AbortController costs ~8 µs to make on Node 20 (its signal's prototype is set after construction). The linked
   * signal is a function of the two signals only, so calls with the same own signal may share it while neither has
   * aborted; once one has, each call gets a fresh controller as before.
   */
  private readonly byOwn = new WeakMap<AbortSignal, AbortController>();

  constructor(private readonly shared: AbortSignal | undefined) {
    shared?.addEventListener(
      'abort',
      () => {
        for (const controller of [...this.calls.keys()]) controller.abort(shared.reason);
      },
      { once: true },
    );
  }

  /** The call's signal linked with the shared one; `unlink()` when the call ends. */
  link(own: AbortSignal | undefined): LinkedSignal {
    const shared = this.shared;
    if (!own || !shared) return { signal: own ?? shared, unlink: nothing };
    if (own.aborted || shared.aborted) return this.linkOnce(own, shared);
    let controller = this.byOwn.get(own);
    if (controller === undefined || controller.signal.aborted) {
      const created = new AbortController();
      // Stays registered while `own` lives (one listener per caller signal, not per call): ends with it.
      own.addEventListener('abort', () => created.abort(own.reason), { once: true });
      this.byOwn.set(own, created);
      controller = created;
    }
    const shareable = controller;
    this.calls.set(shareable, (this.calls.get(shareable) ?? 0) + 1);
    let linked = true;
    return {
      signal: shareable.signal,
      unlink: () => {
        if (!linked) return;
        linked = false;
        const count = this.calls.get(shareable)! - 1;
        if (count === 0) this.calls.delete(shareable);
        else this.calls.set(shareable, count);
      },
    };
  }

  /** A controller of the call's own, for a call that starts with a signal already aborted. */
  private linkOnce(own: AbortSignal, shared: AbortSignal): LinkedSignal {
    const controller = new AbortController();
    controller.abort(own.aborted ? own.reason : shared.reason);
    return { signal: controller.signal, unlink: nothing };
  }

  /** Calls linked and not yet unlinked (tests). */
  get linked(): number {
    let count = 0;
    for (const calls of this.calls.values()) count += calls;
    return count;
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
