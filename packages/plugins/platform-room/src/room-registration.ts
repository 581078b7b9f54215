// An adapter's entry in the platform registry (what `admin.platforms` and the gateway read its capabilities from):
// made once, when the adapter first knows it is connected (and, where the platform says so, its own account id),
// and removed when the plugin stops. Every room adapter registers the same capabilities: replies whole (no
// streaming), rooms, quoting where the platform can quote.
import type { PlatformService } from '@aalis/api-platform';
import type { ServiceHandle } from '@aalis/core';

export interface RoomRegistration {
  /** Registers the platform the first time it is called (later calls change nothing). */
  register(selfId?: string): void;
  /** Removes the entry, if made; none is made after this. */
  unregister(): void;
}

export function roomRegistration(
  platform: ServiceHandle<PlatformService>,
  { id, quoting = true }: { id: string; quoting?: boolean },
): RoomRegistration {
  let unregister: (() => void) | undefined;
  let stopped = false;
  return {
    register(selfId) {
      if (unregister || stopped || !platform.available) return;
      unregister = platform.use.register({
        id,
        type: id,
        ...(selfId ? { selfId } : {}),
        capabilities: { streaming: false, quoting, rooms: true },
      });
    },
    unregister() {
      stopped = true;
      unregister?.();
    },
  };
}
