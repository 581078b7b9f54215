// The Pling instance for a component: the one given explicitly, else the one `app.use(pling)` provided.
import { hasInjectionContext, inject } from 'vue';
import type { Pling } from './create-pling.js';
import { PLING_KEY } from './pling-key.js';
import { PlingVueError } from './pling-vue-error.js';

export function usePling(explicit?: Pling): Pling {
  if (explicit) return explicit;
  const provided = hasInjectionContext() ? inject(PLING_KEY, undefined) : undefined;
  if (provided) return provided;
  throw new PlingVueError(
    'PLING_NOT_PROVIDED',
    'no Pling instance here. Install it with `app.use(pling)` (pling = createPling(...)), or pass it explicitly ' +
      '(`<AgentDock :pling="pling">`, `useAction(definition, pling)`); inject() only works inside setup().',
  );
}
