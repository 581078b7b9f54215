// An adapter's way in, the same for every room platform: what it read from one platform message (text, images,
// files, who wrote in which chat) becomes the gateway's IncomingMessage — its content within the section's room
// limits (images and files fetched, overlong text cut, each failure a visible note), in the chat's room session — and
// is handed to the gateway, resolving once its input is stored (so the adapter acknowledges only what is kept).
import { type GatewayService, type Receipt, receiveStored } from '@aalis/api-gateway';
import type { SessionManagerService } from '@aalis/api-session-manager';
import { describeError, type Events, type Logger, type TextRef } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import { type InboundContentOptions, type InboundFile, inboundContent } from './inbound-content.js';
import { inboundLimits, type RoomLimitsSettings } from './inbound-limits.js';
import { type RoomInbound, roomIncoming } from './room-session.js';

/** What of an adapter's plugin context (its `apply` argument) the way in uses; a handle is read at each message. */
export interface RoomInboundContext {
  /** The adapter's section (its room limits). */
  config: { readonly use: RoomLimitsSettings };
  logger: { readonly use: Logger };
  i18n: { readonly use: { t(text: TextRef): string } };
  sessionManager: { readonly available: boolean; readonly use: SessionManagerService };
  gateway: { readonly use: Pick<GatewayService, 'receive'> };
  events: { readonly use: Pick<Events, 'on'> };
}

export interface RoomInboundOptions {
  platform: string;
  /** The platform as log lines name it ('DingTalk'). */
  label: string;
}

/** What an adapter read from one platform message. */
export interface RoomMessage extends Omit<RoomInbound, 'platform' | 'content' | 'attachments'> {
  text: string;
  images?: InboundContentOptions['images'];
  files?: readonly InboundFile[];
  /** What fetching its images and files needs (the bot's token as a header; never shown or logged). */
  headers?: Record<string, string>;
}

export interface RoomInboundPort {
  /** The message as the gateway takes it (its content within the limits, its room session ensured). */
  incoming(message: RoomMessage): Promise<IncomingMessage>;
  /** Hands a message to the gateway; resolves once its input is stored (a failure logged, resolving `failed`). */
  store(message: IncomingMessage): Promise<Receipt>;
  /** Both: read, then stored. */
  receive(message: RoomMessage): Promise<Receipt>;
}

export function roomInbound(context: RoomInboundContext, { platform, label }: RoomInboundOptions): RoomInboundPort {
  const { config, i18n, sessionManager, gateway, events } = context;
  const logger = context.logger.use;
  const port: RoomInboundPort = {
    async incoming({ text, images = [], files, headers, ...message }) {
      const limits = inboundLimits(config.use);
      const { content, attachments } = await inboundContent({
        text,
        images,
        ...(files ? { files } : {}),
        maxLength: limits.maxLength,
        image: headers ? { ...limits.image, headers } : limits.image,
        file: headers ? { ...limits.file, headers } : limits.file,
        t: (ref) => i18n.use.t(ref),
        logger,
      });
      return roomIncoming(
        { platform, ...message, content, attachments },
        { sessionManager: sessionManager.available ? sessionManager.use : undefined, logger },
      );
    },
    store: (message) =>
      // Resolves once stored, not when its turn ends: the chat's next message must reach the gateway before this
      // turn ends (to join it).
      receiveStored(gateway.use, events.use, message, (error) =>
        logger.error(`${label}: a message could not be handed to the gateway`, { error: describeError(error) }),
      ),
    receive: async (message) => port.store(await port.incoming(message)),
  };
  return port;
}
