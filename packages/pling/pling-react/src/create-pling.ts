// createPling for React: the shared Pling core as it is (one page, one lazily created runtime, one locale, the page
// shortcuts and onSessionEvent). The hooks follow the runtime through `onStart` without creating it, so a dock's
// `config` property can still take part.
import { createPlingCore, type PlingCore, type PlingOptions } from '@plingjs/core';

export type Pling = PlingCore;

/** Creates the Pling of an app: pass it to `<PlingProvider pling={…}>`. Throws INVALID_CONFIG for a bad config. */
export function createPling(options: PlingOptions = {}): Pling {
  return createPlingCore(options);
}
