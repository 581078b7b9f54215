// The onion: runs middlewares in order around a centre, refusing a next() called twice.
import type { HookRunResult, Middleware } from '@aalis/api-hooks';
import { coreErrors } from '@aalis/core';

export function compose<C>(
  key: string,
  middlewares: readonly Middleware<C>[],
  centre?: (context: C) => void | Promise<void>,
): (context: C) => Promise<HookRunResult> {
  return async (context) => {
    let reachedCentre = false;
    let lastIndex = -1;
    const dispatch = async (index: number): Promise<void> => {
      if (index <= lastIndex) throw coreErrors.AALIS_HOOK_NEXT_TWICE({ hook: key });
      lastIndex = index;
      const middleware = middlewares[index];
      if (!middleware) {
        reachedCentre = true;
        if (centre) await centre(context);
        return;
      }
      await middleware(context, () => dispatch(index + 1));
    };
    await dispatch(0);
    return { reachedCentre };
  };
}
