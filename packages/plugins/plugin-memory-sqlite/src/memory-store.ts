// What the memory service needs from an engine: one implementation per engine (SQLite synchronous, PostgreSQL
// asynchronous), the same semantics, checked by one conformance suite.
import type { MemoryReadOptions, MemorySearchHit, MemorySearchOptions, Supersession } from '@aalis/api-memory';
import type { Message } from '@aalis/schema-message';

type Awaitable<T> = T | Promise<T>;

export interface MemoryStore {
  append(sessionId: string, messages: readonly Message[]): Awaitable<Message[]>;
  read(sessionId: string, options?: MemoryReadOptions): Awaitable<Message[]>;
  countHistory(sessionId: string): Awaitable<number>;
  activeStart(sessionId: string): Awaitable<number>;
  /** The compression divider just before the active history, by index (undefined: none). */
  activeDivider(sessionId: string): Awaitable<Message | undefined>;
  readAll(sessionId: string): Awaitable<Message[]>;
  deleteByTurn(sessionId: string, turnId: string): Awaitable<number>;
  /** Marks the rows of these turns superseded; returns the turns that had rows newly marked, with their counts. */
  supersedeTurns(
    sessionId: string,
    turnIds: readonly string[],
    supersession: Supersession,
  ): Awaitable<{ turnId: string; count: number }[]>;
  search(query: string, options: MemorySearchOptions): Awaitable<MemorySearchHit[]>;
  /** Deletes the rows of these sessions, or of every session (undefined). */
  delete(sessionIds: readonly string[] | undefined): Awaitable<void>;
}
