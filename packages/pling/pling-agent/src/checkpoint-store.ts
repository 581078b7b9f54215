// Where checkpoints live: a pluggable storage (sessionStorage by default: one tab, kept across navigations and
// reloads, gone with the tab), one key per session, writes coalesced to one per task, and every failure turned into
// a reported problem instead of an exception.
import {
  CHECKPOINT_VERSION,
  DEFAULT_CHECKPOINT_MAX_BYTES,
  type DecodedCheckpoint,
  decodeCheckpoint,
  encodeCheckpoint,
  type SessionCheckpoint,
} from './checkpoint.js';
import type { CheckpointProblem } from './checkpoint-texts.js';

/** The part of the Web Storage API checkpoints use; `sessionStorage`, `localStorage` or any object of this shape. */
export interface CheckpointStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** How checkpoints are kept; only used when `config.continuity` is true. */
export interface CheckpointOptions {
  /** Default: the page's `sessionStorage` (nothing, and a reported `storage-unavailable`, where there is none). */
  storage?: CheckpointStorage;
  /** Bound of one session's checkpoint in UTF-8 bytes (default 256 KiB); see encodeCheckpoint for what happens past it. */
  maxBytes?: number;
  /** Key prefix, for several runtimes in one tab (default 'pling:checkpoint'); the key is `<prefix>:<sessionId>`. */
  keyPrefix?: string;
  /**
   * Builds, once per write, the redaction applied to every string before it is written: the page layer passes its
   * own, so values it shows as `sensitive()` are stored as their markers, never as the values themselves.
   */
  redactor?: () => (text: string) => string;
  /** Whether a tool call is waiting for the person's confirmation (asked again after the reload). */
  awaitingConfirmation?: (sessionId: string, callId: string) => boolean;
  /** Something outside the session that the checkpoint reflects changed (a confirmation came or went): save again. */
  watch?: (listener: () => void) => () => void;
}

export const DEFAULT_CHECKPOINT_KEY_PREFIX = 'pling:checkpoint';

export type SaveOutcome = { ok: true; droppedEvents: number } | { ok: false; problem: CheckpointProblem };

/** One runtime's checkpoints. */
export class Checkpoints {
  readonly maxBytes: number;
  readonly awaitingConfirmation: (sessionId: string, callId: string) => boolean;
  private readonly storage: CheckpointStorage | undefined;
  private readonly prefix: string;
  private readonly redactor: (() => (text: string) => string) | undefined;
  private readonly pending = new Map<string, () => SessionCheckpoint | undefined>();
  private readonly watch: CheckpointOptions['watch'];
  private scheduled = false;

  constructor(options: CheckpointOptions = {}) {
    this.storage = options.storage ?? defaultStorage();
    this.maxBytes = options.maxBytes ?? DEFAULT_CHECKPOINT_MAX_BYTES;
    this.prefix = options.keyPrefix ?? DEFAULT_CHECKPOINT_KEY_PREFIX;
    this.redactor = options.redactor;
    this.awaitingConfirmation = options.awaitingConfirmation ?? (() => false);
    this.watch = options.watch;
  }

  get available(): boolean {
    return this.storage !== undefined;
  }

  key(sessionId: string): string {
    return `${this.prefix}:${sessionId}`;
  }

  /** The stored checkpoint, `none`, or why it was discarded (a discarded one is removed). */
  load(sessionId: string): DecodedCheckpoint | { kind: 'none' } {
    if (!this.storage) return { kind: 'discarded', problem: 'storage-unavailable' };
    let text: string | null;
    try {
      text = this.storage.getItem(this.key(sessionId));
    } catch {
      return { kind: 'discarded', problem: 'storage-error' };
    }
    if (text === null) return { kind: 'none' };
    const decoded = decodeCheckpoint(text, sessionId);
    if (decoded.kind === 'discarded') this.remove(sessionId);
    return decoded;
  }

  /**
   * Schedules a write of `build()` (read when the write happens: several changes in one task are one write);
   * `undefined` removes the checkpoint. `report` gets each write's outcome.
   */
  save(sessionId: string, build: () => SessionCheckpoint | undefined, report: (outcome: SaveOutcome) => void): void {
    if (!this.storage) return;
    this.pending.set(sessionId, () => {
      // Runs in a microtask: anything thrown here would be an uncaught error of the page, so it is reported instead.
      let outcome: SaveOutcome;
      try {
        const checkpoint = build();
        if (checkpoint === undefined) {
          this.remove(sessionId);
          return undefined;
        }
        outcome = this.write(checkpoint);
      } catch {
        outcome = { ok: false, problem: 'storage-error' };
      }
      report(outcome);
      return undefined;
    });
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // A microtask still runs before the document unloads, so nothing written in this task is lost.
    queueMicrotask(() => this.flush());
  }

  /** Writes what is scheduled now (also what the microtask does). */
  flush(): void {
    this.scheduled = false;
    const writes = [...this.pending.values()];
    this.pending.clear();
    for (const write of writes) write();
  }

  remove(sessionId: string): void {
    this.pending.delete(sessionId);
    try {
      this.storage?.removeItem(this.key(sessionId));
    } catch {
      // Nothing to report: a checkpoint that cannot be removed is discarded when read (its session starts afresh).
    }
  }

  /**
   * Telemetry is the conversation's too (the clear button resets both), so its sums are carried over as well:
   * restored into `telemetry` now, and saved (coalesced) whenever it changes. Returns the remover.
   */
  carryTelemetry(telemetry: {
    restore(counts: Record<string, unknown>): void;
    getSnapshot(): object;
    subscribe(listener: () => void): () => void;
  }): () => void {
    if (!this.storage) return () => {};
    const key = `${this.prefix}-telemetry`;
    try {
      const stored: unknown = JSON.parse(this.storage.getItem(key) ?? 'null');
      const record = stored as { version?: unknown; counts?: unknown } | null;
      if (record?.version === CHECKPOINT_VERSION && typeof record.counts === 'object' && record.counts !== null) {
        telemetry.restore(record.counts as Record<string, unknown>);
      }
    } catch {
      // Unreadable sums: telemetry starts from zero, as it would in a new tab.
    }
    return telemetry.subscribe(() => {
      this.pending.set(key, () => {
        try {
          this.storage!.setItem(key, JSON.stringify({ version: CHECKPOINT_VERSION, counts: telemetry.getSnapshot() }));
        } catch {
          // A refused write only means the sums restart in the next document; the session reports storage problems.
        }
        return undefined;
      });
      this.schedule();
    });
  }

  /** Listens to outside changes the checkpoint reflects; returns the remover. */
  onOutsideChange(listener: () => void): () => void {
    return this.watch?.(listener) ?? (() => {});
  }

  private write(checkpoint: SessionCheckpoint): SaveOutcome {
    const redact = this.redactor?.();
    const encoded = encodeCheckpoint(checkpoint, { maxBytes: this.maxBytes, ...(redact && { redact }) });
    try {
      this.storage!.setItem(this.key(checkpoint.sessionId), encoded.text);
    } catch {
      return { ok: false, problem: 'storage-error' };
    }
    return encoded.kind === 'too-large'
      ? { ok: false, problem: 'too-large' }
      : { ok: true, droppedEvents: encoded.droppedEvents };
  }
}

function defaultStorage(): CheckpointStorage | undefined {
  try {
    // Reading the property throws where storage is blocked (sandboxed frames, some privacy settings).
    const storage = (globalThis as { sessionStorage?: CheckpointStorage }).sessionStorage;
    return storage ?? undefined;
  } catch {
    return undefined;
  }
}
