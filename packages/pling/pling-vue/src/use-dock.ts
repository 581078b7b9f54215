// One dock's model for as long as the calling component (or effect scope) lives: the state AgentDock renders, for
// hosts that want their own markup. Creating it resolves the runtime's configuration with `config` (and the trace
// bound of `debug`) if the runtime is not running yet.
import type { AgentConfig } from '@plingjs/agent';
import { DockModel, type DockState } from '@plingjs/core';
import { onScopeDispose, type ShallowRef } from 'vue';
import type { Pling } from './create-pling.js';
import { requireScope } from './require-scope.js';
import { useObservable } from './use-observable.js';
import { usePling } from './use-pling.js';

export interface UseDockOptions {
  /** Header text; default the locale's 「助手」 / "Assistant". */
  title?: string;
  /** Merged into the runtime's configuration when the runtime is created (the spec's component config). */
  config?: AgentConfig;
  /** Keeps and shows the last `maxCalls` model requests. */
  debug?: { maxCalls: number };
  sessionId?: string;
  /** A fixed dock's first state on a page where the person has not opened or closed it yet; default true. */
  defaultOpen?: boolean;
  /** Show the model settings (the state's `modelSettings`); default: when createPling was given `modelSettings`. */
  modelSettings?: boolean;
  /** Default: the instance `app.use(pling)` provided. */
  pling?: Pling;
}

export interface UseDockResult {
  model: DockModel;
  state: Readonly<ShallowRef<DockState>>;
}

export function useDock(options: UseDockOptions = {}): UseDockResult {
  requireScope('useDock', 'new DockModel({ core: pling, … }) and call its dispose()');
  const { pling, ...rest } = options;
  const model = new DockModel({ core: usePling(pling), ...rest });
  onScopeDispose(() => model.dispose());
  return { model, state: useObservable(model) };
}
