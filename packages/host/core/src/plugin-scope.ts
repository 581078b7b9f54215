// Everything one activation of a plugin owns: disposers (run in reverse order), drain handlers, the abort signal,
// and its service bindings. Disposing the scope undoes all of it exactly once.
import type { Disposer } from './descriptor.js';
import type { ServiceBinding } from './service-handle.js';

export class PluginScope {
  private readonly disposers: Array<() => void | Promise<void>> = [];
  readonly drainers = new Set<() => void | Promise<void>>();
  readonly bindings: ServiceBinding<unknown>[] = [];
  readonly controller = new AbortController();
  disposed = false;

  /** Adds a disposer; returns a function that runs it early (and only once). */
  own(disposer: () => void | Promise<void>): Disposer {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      const index = this.disposers.indexOf(once);
      if (index >= 0) this.disposers.splice(index, 1);
      return disposer();
    };
    if (this.disposed) {
      void Promise.resolve().then(once);
      return () => {};
    }
    this.disposers.push(once);
    return () => {
      void once();
    };
  }

  /** Runs every disposer in reverse order; errors are collected, not thrown. */
  async dispose(onError: (error: unknown) => void): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.controller.abort();
    for (const binding of this.bindings) binding.close();
    while (this.disposers.length > 0) {
      const disposer = this.disposers.pop()!;
      try {
        await disposer();
      } catch (error) {
        onError(error);
      }
    }
    this.drainers.clear();
  }
}
