// The gateway client's shards (@discordjs/ws), stoppable for good. A shard the client is reconnecting (its pause
// before the next attempt, after a drop or a zombie heartbeat) is not stopped by WebSocketManager.destroy(): the
// attempt goes on afterwards and the stopped host RESUMEs or IDENTIFYs again — a second connection of the same bot,
// which makes Discord end the session of the host that took over. Here a shard that says hello once `stopped` has
// aborted is destroyed at once; with retrieveSessionInfo and the identify throttler refusing after a stop (see
// discord-platform.ts), it sends neither RESUME nor IDENTIFY.
import { Collection } from '@discordjs/collection';
import {
  type IIdentifyThrottler,
  type IShardingStrategy,
  managerToFetchingStrategyOptions,
  SimpleContextFetchingStrategy,
  SimpleIdentifyThrottler,
  type WebSocketManager,
  WebSocketShard,
  type WebSocketShardDestroyOptions,
  WebSocketShardEvents,
  type WebSocketShardStatus,
} from '@discordjs/ws';
import type { GatewaySendPayload } from 'discord-api-types/v10';

export class StoppableShardingStrategy implements IShardingStrategy {
  /** Kept after destroy(): a shard still reconnecting must stay within reach of the hello guard. */
  private readonly shards = new Map<number, WebSocketShard>();

  constructor(
    private readonly manager: WebSocketManager,
    private readonly stopped: AbortSignal,
  ) {}

  async spawn(shardIds: number[]): Promise<void> {
    const options = await managerToFetchingStrategyOptions(this.manager);
    for (const shardId of shardIds) {
      const shard = new WebSocketShard(new SimpleContextFetchingStrategy(this.manager, options), shardId);
      shard.on(WebSocketShardEvents.Closed, (code) => this.manager.emit(WebSocketShardEvents.Closed, code, shardId));
      shard.on(WebSocketShardEvents.Debug, (message) =>
        this.manager.emit(WebSocketShardEvents.Debug, message, shardId),
      );
      shard.on(WebSocketShardEvents.Dispatch, (payload) =>
        this.manager.emit(WebSocketShardEvents.Dispatch, payload, shardId),
      );
      shard.on(WebSocketShardEvents.Error, (error) => this.manager.emit(WebSocketShardEvents.Error, error, shardId));
      shard.on(WebSocketShardEvents.SocketError, (error) =>
        this.manager.emit(WebSocketShardEvents.SocketError, error, shardId),
      );
      shard.on(WebSocketShardEvents.Ready, (data) => this.manager.emit(WebSocketShardEvents.Ready, data, shardId));
      shard.on(WebSocketShardEvents.Resumed, () => this.manager.emit(WebSocketShardEvents.Resumed, shardId));
      shard.on(WebSocketShardEvents.HeartbeatComplete, (stats) =>
        this.manager.emit(WebSocketShardEvents.HeartbeatComplete, stats, shardId),
      );
      shard.on(WebSocketShardEvents.Hello, () => {
        if (this.stopped.aborted) {
          void Promise.resolve(shard.destroy({ reason: 'stopped' })).catch(() => {});
          return;
        }
        this.manager.emit(WebSocketShardEvents.Hello, shardId);
      });
      this.shards.set(shardId, shard);
    }
  }

  async connect(): Promise<void> {
    await Promise.all([...this.shards.values()].map((shard) => shard.connect()));
  }

  async destroy(options?: Omit<WebSocketShardDestroyOptions, 'recover'>): Promise<void> {
    await Promise.all([...this.shards.values()].map((shard) => shard.destroy(options)));
  }

  async send(shardId: number, payload: GatewaySendPayload): Promise<void> {
    const shard = this.shards.get(shardId);
    if (!shard) throw new RangeError(`Shard ${shardId} not found`);
    await shard.send(payload);
  }

  fetchStatus(): Collection<number, WebSocketShardStatus> {
    return new Collection([...this.shards].map(([id, shard]) => [id, shard.status]));
  }
}

/**
 * Discord's identify throttle (max_concurrency), except once `stopped` has aborted: then no shard may IDENTIFY; the
 * wait ends when the shard closes (its signal), which is what the gateway client expects of a throttler.
 */
export async function stoppableIdentifyThrottler(
  manager: WebSocketManager,
  stopped: AbortSignal,
): Promise<IIdentifyThrottler> {
  const info = await manager.fetchGatewayInformation();
  const throttler = new SimpleIdentifyThrottler(info.session_start_limit.max_concurrency);
  return {
    waitForIdentify: (shardId, signal) =>
      stopped.aborted
        ? new Promise<void>((_resolve, reject) => {
            if (signal.aborted) reject(signal.reason);
            else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          })
        : throttler.waitForIdentify(shardId, signal),
  };
}
