// Keeps the recall store in step with the archive: what memory appends is indexed in the background in batches
// (one write per batch), deletions and clears are applied in the same order as the appends they follow, and what
// the archive stored while the plugin was away is caught up on start. Nothing here blocks or fails a turn: the
// archive is the record, the index can always be rebuilt from it.
import type { Logger } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import { contextText, type RecallEntry, type RecallStore } from './recall-store.js';

type Operation =
  | { kind: 'add'; sessionId: string; messages: readonly Message[] }
  | { kind: 'deleteTurn'; sessionId: string; turnId: string }
  | { kind: 'clear'; sessionIds: readonly string[] | undefined }
  | { kind: 'catchUp'; sessionId: string };

/** Sessions whose last words are kept for the context of their next message. */
const REMEMBERED_SESSIONS = 10_000;
/** Messages indexed per write. */
export const INDEX_BATCH = 500;
/** Appended messages waiting at most; past it a session is read again from the archive later instead. */
export const MAX_WAITING_MESSAGES = 20_000;
/** How long the first waiting change waits before the queue is applied (the changes that follow gather with it). */
export const INDEX_DELAY_MS = 200;

export interface MessageIndexerOptions {
  store: RecallStore;
  /** The entry of one stored message of a session, or nothing when it is not recalled. */
  entryOf(sessionId: string, message: Message): Promise<RecallEntry | undefined>;
  /** The whole archive of a session (catch-up). */
  readAll(sessionId: string): Promise<Message[]>;
  log: Logger;
  /** Called after entries were written (dense vectors follow them). */
  onWritten?: () => void;
}

export class MessageIndexer {
  private readonly operations: Operation[] = [];
  /** The last indexed words of recently active sessions: the context of their next message. */
  private readonly lastWords = new Map<string, string>();
  private waitingMessages = 0;
  /** Deletions and clears handed in and not applied yet (a recall must not find what they remove). */
  private waitingDeletions = 0;
  private running: Promise<void> | undefined;
  /** Ends the quiet period now (set while a drain waits for it). */
  private wake: (() => void) | undefined;
  private stopped = false;
  /** Writes and reads that failed so far (a catch-up that met one does not count as done). */
  failures = 0;

  constructor(private readonly options: MessageIndexerOptions) {}

  appended(sessionId: string, messages: readonly Message[]): void {
    if (this.waitingMessages + messages.length > MAX_WAITING_MESSAGES) {
      // Backpressure without losing anything: the session is read again from the archive once the queue drains.
      if (!this.operations.some((op) => op.kind === 'catchUp' && op.sessionId === sessionId)) {
        this.push({ kind: 'catchUp', sessionId });
      }
      return;
    }
    this.waitingMessages += messages.length;
    this.push({ kind: 'add', sessionId, messages });
    // A full batch is written at once: the wait only gathers a turn's few messages, it never holds a burst back.
    if (this.waitingMessages >= INDEX_BATCH) this.wake?.();
  }

  /** A deletion is applied at once, not after the quiet period: the next turn's recall waits for it. */
  deletedTurn(sessionId: string, turnId: string): void {
    this.pushDeletion({ kind: 'deleteTurn', sessionId, turnId });
  }

  cleared(sessionIds: readonly string[] | undefined): void {
    this.pushDeletion({ kind: 'clear', sessionIds });
  }

  /**
   * Resolves once no deletion waits (at once when none does, the usual case): a turn rolled back, or sessions
   * cleared, leave the index before the next recall reads it.
   */
  async deletionsApplied(): Promise<void> {
    while (this.waitingDeletions > 0 && this.running) await this.settled();
  }

  private pushDeletion(operation: Extract<Operation, { kind: 'deleteTurn' | 'clear' }>): void {
    if (this.stopped) return;
    this.waitingDeletions += 1;
    this.push(operation);
    this.wake?.();
  }

  /** Reads sessions again from the archive and adds what the index lacks. */
  catchUp(sessionIds: readonly string[]): void {
    for (const sessionId of sessionIds) this.push({ kind: 'catchUp', sessionId });
  }

  /** Resolves when everything handed in so far is applied. */
  async settled(): Promise<void> {
    while (this.running) {
      this.wake?.();
      await this.running;
    }
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Stops taking work (what waits is dropped: the archive still has it, the next start catches up). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.operations.length = 0;
    this.waitingMessages = 0;
    this.waitingDeletions = 0;
    await this.settled();
  }

  private push(operation: Operation): void {
    if (this.stopped) return;
    this.operations.push(operation);
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.wake?.(), INDEX_DELAY_MS);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
    while (this.operations.length > 0 && !this.stopped) {
      const next = this.operations[0];
      if (next?.kind === 'add') await this.addBatch();
      else {
        this.operations.shift();
        if (next) await this.apply(next);
      }
    }
  }

  private async addBatch(): Promise<void> {
    const entries: RecallEntry[] = [];
    let taken = 0;
    while (this.operations[0]?.kind === 'add' && entries.length < INDEX_BATCH) {
      const operation = this.operations.shift() as Extract<Operation, { kind: 'add' }>;
      taken += operation.messages.length;
      for (const message of operation.messages) {
        const entry = await this.safeEntry(operation.sessionId, message);
        if (entry) entries.push(this.withContext(entry));
      }
    }
    this.waitingMessages -= taken;
    await this.write(entries);
  }

  private async apply(operation: Exclude<Operation, { kind: 'add' }>): Promise<void> {
    try {
      if (operation.kind === 'deleteTurn') await this.options.store.deleteTurn(operation.sessionId, operation.turnId);
      else if (operation.kind === 'clear') await this.options.store.deleteSessions(operation.sessionIds);
      else await this.readAgain(operation.sessionId);
    } catch (error) {
      this.failures += 1;
      this.options.log.warn('long-term memory index: could not apply a change; it is applied again on restart', {
        change: operation.kind,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      if (operation.kind !== 'catchUp') this.waitingDeletions = Math.max(0, this.waitingDeletions - 1);
    }
  }

  private async readAgain(sessionId: string): Promise<void> {
    const messages = await this.options.readAll(sessionId);
    // Read from its start: each message's context is the one before it in the archive.
    this.lastWords.delete(sessionId);
    for (let start = 0; start < messages.length && !this.stopped; start += INDEX_BATCH) {
      const entries: RecallEntry[] = [];
      for (const message of messages.slice(start, start + INDEX_BATCH)) {
        const entry = await this.safeEntry(sessionId, message);
        if (entry) entries.push(this.withContext(entry));
      }
      await this.write(entries);
    }
  }

  /** Gives an entry the words said before it in its session (what this indexer saw last there). */
  private withContext(entry: RecallEntry): RecallEntry {
    const before = this.lastWords.get(entry.sessionId);
    this.lastWords.delete(entry.sessionId);
    this.lastWords.set(entry.sessionId, contextText(entry.text));
    if (this.lastWords.size > REMEMBERED_SESSIONS) this.lastWords.delete(this.lastWords.keys().next().value!);
    return before === undefined ? entry : { ...entry, context: before };
  }

  private async safeEntry(sessionId: string, message: Message): Promise<RecallEntry | undefined> {
    try {
      return await this.options.entryOf(sessionId, message);
    } catch (error) {
      this.options.log.warn('long-term memory index: a message could not be described; it is not recalled', {
        sessionId,
        messageId: message.id,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  }

  private async write(entries: RecallEntry[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await this.options.store.add(entries);
      this.options.onWritten?.();
    } catch (error) {
      this.failures += 1;
      this.options.log.warn('long-term memory index: a batch could not be written; the next start reads it again', {
        messages: entries.length,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
