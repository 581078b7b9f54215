// Declares a page action for as long as the component is mounted. The handler (and a `confirm` function) of the
// latest render is the one that runs, so it sees current state; the declaration itself — what the model is
// offered — is registered again only when it, or `deps`, change.
import { type ActionContext, type ActionDefinition, defineAction } from '@plingjs/core';
import { type DependencyList, useEffect, useMemo } from 'react';
import { usePling } from './pling-provider.js';
import { useLatest } from './use-latest.js';

/**
 * Registers `definition` on the page in an effect and removes it on unmount. Re-registered when its id,
 * description, parameters, `danger` or `confirm` kind change, or when a value in `deps` does.
 * Throws INVALID_ACTION_ID / INVALID_ACTION while rendering, DUPLICATE_ACTION when the id is taken.
 */
export function useAction<Args extends Record<string, unknown> = Record<string, unknown>>(
  definition: ActionDefinition<Args>,
  deps: DependencyList = [],
): void {
  const pling = usePling();
  const latest = useLatest(definition);
  const { id, description, parameters, danger, confirm } = definition;
  const declarationKey = JSON.stringify([
    id,
    description,
    parameters,
    danger,
    typeof confirm === 'function' || confirm,
  ]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the declaration is keyed by its content, not its identity.
  const action = useMemo(
    () =>
      defineAction<Args>(
        {
          id,
          description,
          parameters,
          ...(danger !== undefined && { danger }),
          ...(confirm !== undefined && {
            confirm:
              typeof confirm === 'function'
                ? (args: Record<string, unknown>) => {
                    const current = latest.current.confirm;
                    // Only between a render that dropped the function and the re-registration: ask, to be safe.
                    return typeof current === 'function' ? current(args) : true;
                  }
                : confirm,
          }),
          handler: (args: Args, context: ActionContext) => latest.current.handler(args, context),
        },
        pling.locale,
      ),
    [declarationKey, pling.locale, ...deps],
  );
  useEffect(() => pling.register(action), [pling, action]);
}
