// The Pling instance for a component: the one given explicitly, else the one `app.use(pling)` provided.
import { adapterUsageError } from '@plingjs/core';
import { hasInjectionContext, inject } from 'vue';
import type { Pling } from './create-pling.js';
import { PLING_KEY } from './pling-key.js';

export function usePling(explicit?: Pling): Pling {
  if (explicit) return explicit;
  const provided = hasInjectionContext() ? inject(PLING_KEY, undefined) : undefined;
  if (provided) return provided;
  throw adapterUsageError('PLING_NOT_PROVIDED', (errors) => errors.notProvidedVue);
}
