// Names a piece of component state for the model (the page snapshot rebuilt every turn) while mounted; the
// getter of the latest render is read, so the model sees current state.
import type { StateGetter } from '@plingjs/core';
import { useEffect } from 'react';
import { usePling } from './pling-provider.js';
import { useLatest } from './use-latest.js';

/** Registers `name` in an effect and removes it on unmount. Throws DUPLICATE_STATE when another owns the name. */
export function usePageState(name: string, getter: StateGetter): void {
  const pling = usePling();
  const latest = useLatest(getter);
  useEffect(() => pling.state(name, () => latest.current()), [pling, name, latest]);
}
