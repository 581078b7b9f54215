// @aalis/api-hooks: the hooks service contract. Hook keys and their context payloads are declared by merging into
// HookContextMap:  declare module '@aalis/api-hooks' { interface HookContextMap { 'agent:turn:after': {...} } }
import { type Disposer, defineService, type ServiceDescriptor } from '@aalis/core';

// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in other packages.
export interface HookContextMap {}

export type HookKey = keyof HookContextMap & string;

/** Onion middleware: do work, `await next()` to continue inward, or return without calling it to short-circuit. */
export type Middleware<C> = (context: C, next: () => Promise<void>) => void | Promise<void>;

export interface HookRunResult {
  /** Whether the chain reached its centre (every middleware called next) and the default action ran. */
  reachedCentre: boolean;
}

export interface HooksService {
  /** Adds a middleware at the end of the chain for `key` (registration order = onion order). Owned by the caller. */
  middleware<K extends HookKey>(key: K, middleware: Middleware<HookContextMap[K]>): Disposer;
  /**
   * Runs the chain for `key` with `context`; `defaultAction` runs at the centre. Errors thrown by a middleware or
   * the default action propagate to the caller; a middleware calling next() twice fails with AALIS_HOOK_NEXT_TWICE.
   */
  run<K extends HookKey>(
    key: K,
    context: HookContextMap[K],
    defaultAction?: (context: HookContextMap[K]) => void | Promise<void>,
  ): Promise<HookRunResult>;
  /** How many middlewares are registered for `key`. */
  count(key: HookKey): number;
}

export const hooks: ServiceDescriptor<HooksService> = defineService<HooksService>('hooks', {
  registrars: ['middleware'],
});
