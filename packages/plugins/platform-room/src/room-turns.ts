// The part of an adapter's wiring every room adapter has: her replies for this platform go to its delivery, and each
// turn tells the room memory which message its reply quotes (and forgets it when the turn is over).
import type { TurnAfterContext, TurnBeforeContext } from '@aalis/api-agent';
import '@aalis/api-gateway';
import type { HooksService } from '@aalis/api-hooks';
import type { Events } from '@aalis/core';
import type { OutgoingMessage } from '@aalis/schema-message';
import type { RoomMemory } from './room-memory.js';

export interface RoomTurnsOptions {
  /** The platform id: only outgoing messages for it are delivered here. */
  platform: string;
  events: Events;
  hooks: HooksService;
  memory: RoomMemory;
  deliver(message: OutgoingMessage): Promise<void>;
  /** A turn begins (after the memory noted it), before the rest of the chain: start typing, note the turn's ids. */
  turnStarted?(context: TurnBeforeContext): void;
  /** A turn is over, before the rest of the chain runs: stop typing. */
  turnEnding?(context: TurnAfterContext): void;
  /** After the rest of the chain, even when it failed (the memory forgot the turn first): drop the turn's ids. */
  turnEnded?(context: TurnAfterContext): void;
}

/** Registers the outbound listener and the two turn middlewares (withdrawn with the plugin, as registrars are). */
export function wireRoomTurns(options: RoomTurnsOptions): void {
  const { platform, events, hooks, memory } = options;
  events.on('outbound:message', (message) => {
    if (message.platform !== platform) return;
    return options.deliver(message);
  });
  hooks.middleware('agent:turn:before', async (context, next) => {
    memory.turnStarted(context.turnId, context.inputs);
    options.turnStarted?.(context);
    await next();
  });
  hooks.middleware('agent:turn:after', async (context, next) => {
    options.turnEnding?.(context);
    try {
      await next();
    } finally {
      memory.turnEnded(context.turnId);
      options.turnEnded?.(context);
    }
  });
}
