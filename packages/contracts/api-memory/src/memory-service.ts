// The memory service contract: per-session append-only history, its active part (after the last compression
// divider), counts of conversation messages, and clearing through the 'memory:clear' hook chain.
import '@aalis/api-hooks';
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { Message } from '@aalis/schema-message';

export interface MemoryReadOptions {
  /**
   * Skip this many conversation messages of the active history (control kinds are not counted) and everything
   * stored before or between them. 0 (the default) starts at the first message after the last compression
   * divider; `from >= countHistory()` returns only the control messages stored after the last conversation message
   * (or nothing without `includeControl`). Must be a non-negative integer.
   */
  from?: number;
  /** Include control messages (CONTROL_KINDS: event markers…) of the range. Default false. */
  includeControl?: boolean;
}

/** What a rollback that keeps the archive writes on each message it takes out (metadata `superseded`). */
export interface Supersession {
  /** One id per rollback: the messages it took out form one version. */
  id: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** What replaced them: 'edit', 'regenerate', 'retry'. */
  action: string;
}

export interface MemorySearchOptions {
  /** Only these sessions (at most 1000). */
  sessionIds?: readonly string[];
  /** Only sessions whose id starts with this. */
  sessionPrefix?: string;
  /** Default 20, at most 200. */
  limit?: number;
}

/** A stored message whose text matched a search. */
export interface MemorySearchHit {
  sessionId: string;
  message: Message;
}

export interface MemoryService {
  /**
   * Appends messages to a session's history in one transaction, in order, and returns them as stored: each with
   * a fresh string `id` (a caller's id is replaced) and a `timestamp` (now when absent). An invalid message fails
   * the whole call with AALIS_MEMORY_MESSAGE_INVALID and nothing is written. Emits 'memory:appended'.
   */
  append(sessionId: string, messages: readonly Message[]): Promise<Message[]>;
  /** The active history (after the last compression divider), in order; see MemoryReadOptions. Unknown session: []. */
  read(sessionId: string, options?: MemoryReadOptions): Promise<Message[]>;
  /** Number of conversation messages in the active history (CONTROL_KINDS excluded). Unknown session: 0. */
  countHistory(sessionId: string): Promise<number>;
  /**
   * Index into readAll(sessionId) of the first active message, i.e. the number of stored messages up to and
   * including the last compression divider (0 without divider or for an unknown session).
   */
  activeStart(sessionId: string): Promise<number>;
  /**
   * The compression divider that starts the active history (the stored message at activeStart − 1), read by index,
   * not by reading the archive; undefined without a divider or for an unknown session.
   */
  activeDivider(sessionId: string): Promise<Message | undefined>;
  /** The whole archive of a session, before dividers too, control messages included (UIs, compaction). */
  readAll(sessionId: string): Promise<Message[]>;
  /**
   * Deletes the session's messages whose metadata turn id is `turnId` (rollback). Returns how many were deleted.
   * Emits 'memory:deleted' when any were.
   */
  deleteByTurn(sessionId: string, turnId: string): Promise<number>;
  /**
   * Takes the messages of these turns out of the active history but keeps them in the archive (rollback by turn id
   * for edit / regenerate / retry): each gets metadata `superseded` (WellKnownMetadataKeys.Superseded) =
   * `supersession`; `read` and `countHistory` leave them out from then on, `readAll` keeps them. Returns how many
   * messages were marked (already superseded ones are not counted again). Emits 'memory:deleted' (with
   * `superseded: true`) once per turn that had messages, so copies of the history reload.
   */
  supersedeTurns(sessionId: string, turnIds: readonly string[], supersession: Supersession): Promise<number>;
  /**
   * Full-text search over what people and she wrote (inputs, replies, command records; superseded messages too,
   * as marked; tool results and system blocks not): every term of the query must occur, best matches first, at most
   * `limit`. Chinese is cut into words as English is (@aalis/util-text-search, docs/decisions/session-search.md); a
   * query with no searchable term (one Chinese character) matches the text as a substring. Empty query: [].
   */
  search(query: string, options?: MemorySearchOptions): Promise<MemorySearchHit[]>;
  /**
   * Clears one session, several, or all of them (no argument) through the 'memory:clear' hook chain when the
   * hooks service is present; the default action at its centre deletes the rows and emits 'memory:cleared'.
   * An empty list clears nothing. A middleware that does not call next() keeps the rows.
   */
  clear(sessionIds?: string | readonly string[]): Promise<void>;
}

/** Context of the 'memory:clear' chain: `undefined` means every session. */
export interface MemoryClearContext {
  sessionIds: readonly string[] | undefined;
}

declare module '@aalis/api-hooks' {
  interface HookContextMap {
    /** Clearing history: memory's default action deletes the rows; vector memory, summaries… add middlewares. */
    'memory:clear': MemoryClearContext;
  }
}

declare module '@aalis/core' {
  interface EventMap {
    /** Messages were appended (after the transaction committed), as stored. */
    'memory:appended': { sessionId: string; messages: readonly Message[] };
    /**
     * Messages of one turn left the active history: deleted (deleteByTurn) or marked superseded (supersedeTurns,
     * `superseded: true`); readers holding copies of the history must reload it.
     */
    'memory:deleted': { sessionId: string; turnId: string; count: number; superseded?: boolean };
    /** History was cleared (the default action of 'memory:clear' ran); `undefined` = every session. */
    'memory:cleared': { sessionIds: readonly string[] | undefined };
  }
}

export const memory: ServiceDescriptor<MemoryService> = defineService<MemoryService>('memory');
