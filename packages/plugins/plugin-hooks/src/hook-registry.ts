// The hooks service implementation: one middleware list per key, snapshotted at the start of each run.
import type { HookContextMap, HookKey, HookRunResult, HooksService, Middleware } from '@aalis/api-hooks';
import type { Disposer } from '@aalis/core';
import { compose } from './compose.js';

export class HookRegistry implements HooksService {
  /**
   * Copy-on-write: registering or removing a middleware replaces the key's array, never changes it, so a run takes
   * the current array as its snapshot without copying it (a turn runs several hooks per model call).
   */
  private readonly chains = new Map<string, readonly Middleware<unknown>[]>();

  middleware<K extends HookKey>(key: K, middleware: Middleware<HookContextMap[K]>): Disposer {
    const entry = middleware as Middleware<unknown>;
    this.chains.set(key, [...(this.chains.get(key) ?? []), entry]);
    return () => {
      const current = this.chains.get(key);
      const index = current?.indexOf(entry) ?? -1;
      if (current && index >= 0) this.chains.set(key, current.toSpliced(index, 1));
    };
  }

  run<K extends HookKey>(
    key: K,
    context: HookContextMap[K],
    defaultAction?: (context: HookContextMap[K]) => void | Promise<void>,
  ): Promise<HookRunResult> {
    const chain = this.chains.get(key) as readonly Middleware<HookContextMap[K]>[] | undefined;
    // Nothing registered (about half of a tool turn's runs): the centre alone, without building the onion.
    if (!chain || chain.length === 0) {
      // Nor a centre (3 of a tool turn's runs): settled at once, without an async function's frame.
      return defaultAction ? centreOnly(context, defaultAction) : Promise.resolve({ reachedCentre: true });
    }
    return compose(key, chain, defaultAction)(context);
  }

  count(key: HookKey): number {
    return this.chains.get(key)?.length ?? 0;
  }
}

/** What compose gives for an empty chain: the centre runs, its failure rejects the run. */
async function centreOnly<C>(context: C, centre: (context: C) => void | Promise<void>): Promise<HookRunResult> {
  await centre(context);
  return { reachedCentre: true };
}
