// The mutes in force: read through a short-lived copy per session (the flow phase asks for every inbound message;
// a flood must not cost a database round trip each), written through the store, and every process told of a
// change by a storage signal so its copy is dropped at once (a process that misses the signal — SQLite signals stay
// in their process — sees the change within `cacheMs`).

import type { HandOverService } from '@aalis/api-storage';
import { setBounded } from '@aalis/core';
import type { MuteRow, MuteStore } from './mute-store.js';

/** The storage signal name a change of a session's mute is announced under. */
export const MUTE_SIGNAL = 'aalis:mute';

/** Sessions whose mute state is kept in memory at most (oldest forgotten first): every count bounded. */
const MAX_CACHED = 10_000;

export interface MutesOptions {
  store: MuteStore;
  signals?: Pick<HandOverService, 'signal' | 'onSignal'>;
  cacheMs?: number;
  now?: () => number;
}

export class Mutes {
  private readonly cache = new Map<string, { row: MuteRow | undefined; readAt: number }>();
  private readonly now: () => number;
  private readonly cacheMs: number;
  private readonly stopListening: (() => void) | undefined;

  constructor(private readonly options: MutesOptions) {
    this.now = options.now ?? Date.now;
    this.cacheMs = options.cacheMs ?? 1000;
    this.stopListening = options.signals?.onSignal((name, text) => {
      if (name === MUTE_SIGNAL) this.cache.delete(text);
    });
  }

  /** The session's mute if one is in force now. */
  async current(sessionId: string): Promise<MuteRow | undefined> {
    const now = this.now();
    let entry = this.cache.get(sessionId);
    if (!entry || now - entry.readAt > this.cacheMs) {
      entry = { row: await this.options.store.get(sessionId), readAt: now };
      this.remember(sessionId, entry);
    }
    const row = entry.row;
    return row && (row.until === undefined || row.until > now) ? row : undefined;
  }

  async mute(row: MuteRow): Promise<void> {
    await this.options.store.put(row);
    this.remember(row.sessionId, { row, readAt: this.now() });
    await this.announce(row.sessionId);
  }

  /** Lifts the session's mute; whether one was in force. */
  async unmute(sessionId: string): Promise<boolean> {
    const wasMuted = (await this.current(sessionId)) !== undefined;
    await this.options.store.remove(sessionId);
    this.remember(sessionId, { row: undefined, readAt: this.now() });
    await this.announce(sessionId);
    return wasMuted;
  }

  close(): void {
    this.stopListening?.();
  }

  private remember(sessionId: string, entry: { row: MuteRow | undefined; readAt: number }): void {
    setBounded(this.cache, sessionId, entry, MAX_CACHED);
  }

  private async announce(sessionId: string): Promise<void> {
    await this.options.signals?.signal(MUTE_SIGNAL, sessionId).catch(() => undefined);
  }
}
