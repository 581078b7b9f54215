// Declares a page action for as long as the calling component (or effect scope) lives: registered now, removed
// when the scope ends. The handler may change the component's reactive state; Vue re-renders as usual.
import type { ActionDefinition } from '@plingjs/core';
import { onScopeDispose } from 'vue';
import type { Pling } from './create-pling.js';
import { requireScope } from './require-scope.js';
import { usePling } from './use-pling.js';

/** Returns the remover (also called when the scope ends; calling it twice is harmless). */
export function useAction<Args extends Record<string, unknown> = Record<string, unknown>>(
  definition: ActionDefinition<Args>,
  pling?: Pling,
): () => void {
  requireScope('useAction', 'pling.register(action), which returns the remover');
  const remove = usePling(pling).register(definition);
  onScopeDispose(remove);
  return remove;
}
