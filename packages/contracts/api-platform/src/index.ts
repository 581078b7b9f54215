// @aalis/api-platform: the platforms the host is connected to (cli, webui, IM adapters), her account on each and
// what each can do. Platform plugins register themselves; the agent reads her identity for reply metadata. Adapters
// that hold a connection also report its live state, which the console lists (`admin.platforms`).
import { type Disposer, defineService, type ServiceDescriptor, type TextRef } from '@aalis/core';

export interface PlatformInfo {
  /** Platform id as used in IncomingMessage.platform (an adapter instance id). */
  id: string;
  /** Platform type for the settings layer of that name (e.g. 'onebot', 'web', 'local'). */
  type: string;
  /** Her own account on this platform, when it has accounts. */
  selfId?: string;
  capabilities: {
    /** Can show streamed fragments (outbound:stream). */
    streaming: boolean;
    /** Can quote an earlier message (OutgoingMessage.replyTo). */
    quoting: boolean;
    /** Has rooms with several people. */
    rooms: boolean;
  };
}

/**
 * Where an adapter's connection stands.
 * - `connecting`: the first attempt is under way (or the adapter checks its credentials).
 * - `connected`: events flow.
 * - `reconnecting`: the connection failed or was lost; the next attempt is at `nextAttemptAt`.
 * - `refused`: the platform refused the credentials (401/403, an invalid token): `configKey` names the key to fix;
 *   an adapter that keeps trying sets `nextAttemptAt` too.
 * - `standby`: another process of this deployment holds the connection (PostgreSQL lease); this one forwards to it.
 * - `stopped`: not running (no credentials configured, or given up); `error`/`configKey` say why when known.
 */
export type PlatformStatus = 'connecting' | 'connected' | 'reconnecting' | 'refused' | 'standby' | 'stopped';

export interface PlatformState {
  status: PlatformStatus;
  /** When the status last changed (ms since the epoch). */
  since: number;
  /** `reconnecting` (and `refused` while retrying): when the next attempt starts (ms since the epoch). */
  nextAttemptAt?: number;
  /** The configuration key to fix, as a full path from the file's root: `plugins.platform-telegram.token`. */
  configKey?: string;
  /**
   * The last failure: a coded error's code and text (`AalisError.code`/`.text`, rendered in the reader's locale).
   * Never a secret.
   */
  error?: { code: string; text: TextRef };
  /** Where the adapter connects or listens, for people (credentials, tokens and query strings removed). */
  endpoint?: string;
}

/** An adapter's live state, read whenever someone asks (the adapter keeps `current()` up to date; no events needed). */
export interface PlatformStateSource {
  /** The platform id (PlatformInfo.id), e.g. `telegram`. */
  readonly id: string;
  /** The platform type (PlatformInfo.type). */
  readonly type: string;
  /** The adapter plugin's package name, e.g. `@aalis/plugin-platform-telegram` (the console links its settings). */
  readonly plugin: string;
  current(): PlatformState;
}

/** One reported state as listed: the source's names and its current state. */
export interface PlatformStateEntry extends PlatformState {
  id: string;
  type: string;
  plugin: string;
}

export interface PlatformService {
  /** Registers a platform (registrar: withdrawn with the registering plugin). */
  register(info: PlatformInfo): Disposer;
  get(id: string): PlatformInfo | undefined;
  list(): PlatformInfo[];
  /**
   * Reports an adapter's connection state (registrar: withdrawn with the registering plugin, so a stopped or removed
   * adapter disappears from `states()`). Call once at `apply`, before connecting; a second source with the same id
   * replaces the first.
   */
  reportState(source: PlatformStateSource): Disposer;
  /** Every reported state, read now. */
  states(): PlatformStateEntry[];
}

export const platform: ServiceDescriptor<PlatformService> = defineService<PlatformService>('platform', {
  registrars: ['register', 'reportState'],
});
