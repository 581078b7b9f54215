// @aalis/api-memory-vector: the long-term memory contract (向量记忆). Every archived message is indexed; a search
// answers with past messages a given session's participants could have seen (the same session, the same room, the
// same person's own words in rooms; nothing private reaches a room or another person), and forgetting removes a
// message from every index. Implemented by @aalis/plugin-memory-vector.
import { defineService, type ServiceDescriptor, type TextRef } from '@aalis/core';
import type { Identity } from '@aalis/schema-message';

export { OWNER_PERSON, personKeyOf } from './person-key.js';

export interface RecalledMessage {
  messageId: string;
  sessionId: string;
  /** `room:<platform>:<venue>`, `private:<person>` or `private:session:<root id>`: who may see it. */
  audience: string;
  /** How the speaker was named; absent for her own words. */
  speaker?: string;
  role: 'user' | 'assistant';
  /** Milliseconds since the epoch. */
  at: number;
  text: string;
  /** Relevance, higher is better (comparable within one answer). */
  score: number;
}

export interface MemorySearchRequest {
  text: string;
  /** Searched as a turn of this session would recall. */
  sessionId: string;
  /** Accounts speaking (their own words in rooms come too); default none. */
  speakers?: readonly Identity[];
  /** Default 10, at most 100. */
  limit?: number;
}

export interface MemoryVectorService {
  search(request: MemorySearchRequest): Promise<RecalledMessage[]>;
  /** Removes messages from every index of long-term memory (the archive keeps its record); returns how many went. */
  forget(messageIds: readonly string[]): Promise<number>;
  /**
   * Removes what a person said that matches `text` (their words in rooms, and their private conversations with her)
   * from every index; returns how many messages went. Used when someone asks her to forget something about them.
   */
  forgetSaidBy(request: { speaker: Identity; text: string; sessionId: string }): Promise<number>;
  /** How many messages are indexed. */
  count(): Promise<number>;
  /** Resolves when everything the archive stored so far is indexed (and, with an embedding endpoint, embedded). */
  settled(): Promise<void>;
  /** What the indexes hold, and whether dense recall works now (and if not, why). */
  status(): Promise<MemoryVectorStatus>;
  /**
   * Drops every stored vector and embeds every indexed message again with the configured embedding model (after the
   * model or its dimension changed: `aalis memory reindex`), reporting progress. Rejects with a coded error when no
   * embedding service is configured or the endpoint fails (what was embedded so far stays).
   */
  reindex(options?: { onProgress?: (progress: ReindexProgress) => void }): Promise<ReindexResult>;
  /** The latest recalls (what turns' blocks carried and why), newest first; bounded in memory. */
  recentRecalls(filter?: { sessionIds?: readonly string[]; limit?: number }): Promise<RecallRecord[]>;
}

export interface MemoryVectorStatus {
  /** Messages in the full-text index. */
  indexed: number;
  /** Dense vectors: `off` without an embedding service; `stale` when the stored ones belong to another model. */
  vectors: {
    state: 'off' | 'indexing' | 'ready' | 'failing' | 'stale';
    model?: string;
    dimensions?: number;
    embedded: number;
    /** Why the state is failing or stale: an AalisError's code and text (never a secret). */
    error?: { code: string; text: TextRef };
  };
}

export interface ReindexProgress {
  embedded: number;
  total: number;
}

export interface ReindexResult extends ReindexProgress {
  model: string;
  dimensions: number;
}

export interface RecallRecord {
  sessionId: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** The query terms the turn searched with. */
  terms: string[];
  items: RecalledItem[];
  /** How long the turn's recall took (search, neighbours, ranking, the block), in milliseconds. */
  ms?: number;
  /**
   * The process's CPU time meanwhile (all its threads), in milliseconds: what the recall cost whatever else ran on
   * the machine (on a shared machine `ms` is mostly the wait for a core).
   */
  cpuMs?: number;
}

export interface RecalledItem {
  messageId: string;
  sessionId: string;
  audience: string;
  speaker?: string;
  at: number;
  text: string;
  /** The excerpt's weight (comparable within one record). */
  score: number;
  /** Why it came: the query terms found in it, `vector` (the dense search found it), or `neighbour` (context). */
  matched: string[];
}

export const memoryVector: ServiceDescriptor<MemoryVectorService> = defineService<MemoryVectorService>('memoryVector');
