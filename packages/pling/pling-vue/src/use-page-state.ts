// Adds a named entry to the page snapshot for as long as the calling component (or effect scope) lives. The
// getter is read at every turn, so it can return reactive data directly.
import type { StateGetter } from '@plingjs/core';
import { onScopeDispose } from 'vue';
import type { Pling } from './create-pling.js';
import { requireScope } from './require-scope.js';
import { toRawDeep } from './to-raw-deep.js';
import { usePling } from './use-pling.js';

/** Returns the remover (also called when the scope ends). */
export function usePageState(name: string, getter: StateGetter, pling?: Pling): () => void {
  requireScope('usePageState', 'pling.state(name, getter), which returns the remover');
  const remove = usePling(pling).state(name, () => toRawDeep(getter()));
  onScopeDispose(remove);
  return remove;
}
