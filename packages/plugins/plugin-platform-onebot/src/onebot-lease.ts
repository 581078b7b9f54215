// Runs a OneBot connection once per deployment: only the process holding the lease `platform:onebot:<instance id>`
// dials (forward) or listens (reverse); the others stand by in acquire() and take over within the lease time when
// the holder stops or dies. Without a storage service (a bare plugin host) the connection simply runs.
import type { Lease, LeasesService } from '@aalis/api-storage';
import type { Logger } from '@aalis/core';
import { redactUrl } from './onebot-connection.js';

export interface LeasedConnection {
  readonly endpoint: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The instance id a configuration names: `instanceId`, else its endpoint (identical on hosts sharing the config). */
export function onebotInstanceId(settings: {
  instanceId: string;
  mode: 'forward' | 'reverse' | 'http';
  url: string;
  reverse: { port: number; path: string };
}): string {
  if (settings.instanceId !== '') return settings.instanceId;
  if (settings.mode === 'forward') return redactUrl(settings.url);
  if (settings.mode === 'http') return `http:${settings.reverse.port}${settings.reverse.path || '/'}`;
  return `reverse:${settings.reverse.port}${settings.reverse.path || '/'}`;
}

export const onebotLeaseName = (instanceId: string) => `platform:onebot:${instanceId}`;

export class OneBotLeaseRunner {
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private lease: Lease | undefined;
  private standbySince: number | undefined;

  constructor(
    private readonly options: {
      leases: LeasesService | undefined;
      name: string;
      connection: LeasedConnection;
      logger: Logger;
      /** Pause before trying again when the connection could not start (a port in use). */
      retryMs: number;
      /** Called with true when this process starts running the connection, false when it stops. */
      onHolding?(holding: boolean): void;
    },
  ) {}

  /** Whether this process runs the connection now (always, without leases). */
  get holding(): boolean {
    return this.options.leases === undefined || this.lease !== undefined;
  }

  /** Since when another process has held the connection while this one waits (undefined: not standing by). */
  get standingBySince(): number | undefined {
    return this.standbySince;
  }

  start(): void {
    this.running ??= this.run().catch((error: unknown) =>
      this.options.logger.error('OneBot: the connection lease loop ended', { error: String(error) }),
    );
  }

  private async run(): Promise<void> {
    const { leases, name, connection, logger } = this.options;
    const signal = this.stopping.signal;
    if (!leases) {
      await connection.start();
      return;
    }
    while (!signal.aborted) {
      let lease = await leases.tryAcquire(name);
      if (!lease) {
        logger.info(`OneBot: another process runs the connection ${connection.endpoint}; standing by (lease ${name})`);
        this.standbySince = Date.now();
        lease = await leases.acquire(name, { signal }).finally(() => {
          this.standbySince = undefined;
        });
      }
      if (!lease) return;
      this.lease = lease;
      let started = false;
      try {
        await connection.start();
        started = true;
        logger.info(`OneBot: this process runs the connection ${connection.endpoint} (lease ${name})`);
        this.options.onHolding?.(true);
        await untilAborted(AbortSignal.any([signal, lease.lost]));
      } catch (error) {
        logger.error(`OneBot: could not start the connection ${connection.endpoint}`, { error: String(error) });
      } finally {
        this.lease = undefined;
        if (started) this.options.onHolding?.(false);
        await connection.stop().catch(() => {});
        await lease.release().catch(() => {});
      }
      if (signal.aborted) return;
      if (started) logger.warn('OneBot: lost the connection lease; standing by to take it again');
      else await untilAborted(AbortSignal.any([signal, AbortSignal.timeout(this.options.retryMs)]));
    }
  }

  /** Stops the connection and gives the lease back, so a standby process takes over at once. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
    await this.options.connection.stop();
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
