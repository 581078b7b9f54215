// A socket an adapter keeps open (DingTalk's Stream, QQ's gateway): held by one process of the deployment (the
// lease), opened again after each end with a growing backoff, and the console's live state kept in step — standby
// while another process holds it, connecting, connected (the adapter sets it), refused when the platform refused the
// credentials (waiting does not help: the console shows the key to fix), reconnecting with the next attempt's time
// and the last failure's coded error.
import type { StorageService } from '@aalis/api-storage';
import { AalisError, describeError, type Logger } from '@aalis/core';
import { holdConnection, reconnectWhile } from './connection-lease.js';
import { pause } from './pause.js';
import { type PlatformStateReport, stateError } from './platform-state-report.js';

/** How one connection ended: it had been ready; it failed before; the platform refused the credentials. */
export type ConnectOutcome = 'ready' | 'failed' | 'refused';

/**
 * What of an adapter's plugin context (its `apply` argument) the connection loops read: the storage's leases (none
 * where only this process runs), its logger and its section's `retryDelayMs` (retryDelayField).
 */
export interface ConnectionContext {
  storage: { readonly available: boolean; readonly use: Pick<StorageService, 'leases'> };
  logger: { readonly use: Logger };
  config: { readonly use: { retryDelayMs: number } };
}

const leasesOf = ({ storage }: Pick<ConnectionContext, 'storage'>) =>
  storage.available ? storage.use.leases() : undefined;

export interface KeepConnectedOptions {
  /** The platform as log lines name it ('DingTalk'). */
  label: string;
  state: PlatformStateReport;
  /** The lease's name: `platform:<id>:<account>`. */
  name: string;
  /** Aborted when the adapter stops. */
  stopping: AbortSignal;
  /** The longest pause between attempts (default a minute, as retryDelayField says). */
  maxMs?: number;
  /**
   * One connection, from opening to its end (it sets `connected` once ready). A throw is a failure to open it: a
   * refusal of the credentials when `refusedKey` names the key to fix (logged as an error), otherwise logged as a
   * warning, its coded error shown while reconnecting.
   */
  attempt(held: AbortSignal): Promise<ConnectOutcome>;
  /** The config key (of the adapter's section) to fix when `error` is the platform refusing the credentials. */
  refusedKey(error: unknown): string | undefined;
  /** What could not be opened, for the log: 'the Stream connection'. */
  what: string;
}

/** Keeps the connection while this process holds its lease, until the adapter stops. */
export function keepConnected(context: ConnectionContext, options: KeepConnectedOptions): Promise<void> {
  const { label, state, name, stopping, maxMs = 60_000, what } = options;
  const logger = context.logger.use;
  const attempt = async (held: AbortSignal): Promise<ConnectOutcome> => {
    try {
      return await options.attempt(held);
    } catch (error) {
      const coded = AalisError.isInstance(error) ? error : undefined;
      const refusedKey = options.refusedKey(error);
      if (coded && refusedKey !== undefined) {
        logger.error(coded.message, { code: coded.code });
        state.set({ status: 'refused', configKey: state.configKey(refusedKey), error: stateError(coded) });
        return 'refused';
      }
      logger.warn(`${label}: ${what} could not be opened: ${describeError(error)}`, { code: coded?.code });
      if (coded) state.set({ status: 'reconnecting', error: stateError(coded) });
      return 'failed';
    }
  };
  return holdConnection({
    leases: leasesOf(context),
    name,
    stopping,
    standby: () => state.set({ status: 'standby' }),
    hold: (held) => {
      state.set({ status: 'connecting' });
      return reconnectWhile(held, {
        attempt,
        healthy: (outcome) => outcome === 'ready',
        baseMs: context.config.use.retryDelayMs,
        maxMs,
        closed: (outcome, delay) => {
          const nextAttemptAt = Date.now() + delay;
          const current = state.current();
          // A refusal stays shown (with its key) until an attempt succeeds; a failure keeps its error.
          if (outcome === 'refused') state.set({ ...current, nextAttemptAt });
          else {
            const error = outcome === 'failed' ? current.error : undefined;
            state.set({ status: 'reconnecting', nextAttemptAt, ...(error ? { error } : {}) });
          }
          logger.info(`${label}: ${what} closed; reconnecting in ${delay} ms`);
        },
      });
    },
  });
}

export interface KeepListeningOptions {
  state: PlatformStateReport;
  name: string;
  stopping: AbortSignal;
  /** The pause before listening again after listening failed (the port taken). */
  retryMs: number;
  /** Listens until `held` aborts or listening fails (listenWhileHeld). */
  listen(held: AbortSignal): Promise<void>;
}

/** A callback server (QQ's webhook, WeCom's callback) kept listening while this process holds the lease. */
export function keepListening(
  context: Pick<ConnectionContext, 'storage'>,
  { state, name, stopping, retryMs, listen }: KeepListeningOptions,
): Promise<void> {
  return holdConnection({
    leases: leasesOf(context),
    name,
    stopping,
    standby: () => state.set({ status: 'standby' }),
    hold: async (held) => {
      while (!held.aborted) {
        await listen(held);
        if (!held.aborted) await pause(retryMs, held).catch(() => {});
      }
    },
  });
}
