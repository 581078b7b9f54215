// Vue 2.7 composition helpers: declare an action or a piece of page state from a component's setup(); it is
// removed when the component is destroyed (its effect scope stops). Outside a scope, call the returned remover.
import type { ActionDefinition, StateGetter } from '@plingjs/core';
import type { Pling } from '@plingjs/vanilla';
import { getCurrentScope, onScopeDispose } from 'vue';

function owned(remove: () => void): () => void {
  if (getCurrentScope()) onScopeDispose(remove);
  return remove;
}

/** Registers `action` on the page for as long as the calling component lives; returns the remover. */
export function useAction<Args extends Record<string, unknown>>(
  pling: Pling,
  action: ActionDefinition<Args>,
): () => void {
  return owned(pling.register(action));
}

/** Names state the model sees every turn (read through `getter`, so reactive data is current) while mounted. */
export function usePageState(pling: Pling, name: string, getter: StateGetter): () => void {
  return owned(pling.state(name, getter));
}
