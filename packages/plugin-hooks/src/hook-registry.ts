// The hooks service implementation: one middleware list per key, snapshotted at the start of each run.
import type { HookContextMap, HookKey, HookRunResult, HooksService, Middleware } from '@aalis/api-hooks';
import type { Disposer } from '@aalis/core';
import { compose } from './compose.js';

export class HookRegistry implements HooksService {
  private readonly chains = new Map<string, Middleware<unknown>[]>();

  middleware<K extends HookKey>(key: K, middleware: Middleware<HookContextMap[K]>): Disposer {
    const chain = this.chains.get(key) ?? [];
    const entry = middleware as Middleware<unknown>;
    chain.push(entry);
    this.chains.set(key, chain);
    return () => {
      const current = this.chains.get(key);
      const index = current?.indexOf(entry) ?? -1;
      if (current && index >= 0) current.splice(index, 1);
    };
  }

  run<K extends HookKey>(
    key: K,
    context: HookContextMap[K],
    defaultAction?: (context: HookContextMap[K]) => void | Promise<void>,
  ): Promise<HookRunResult> {
    const chain = [...(this.chains.get(key) ?? [])] as Middleware<HookContextMap[K]>[];
    return compose(key, chain, defaultAction)(context);
  }

  count(key: HookKey): number {
    return this.chains.get(key)?.length ?? 0;
  }
}
