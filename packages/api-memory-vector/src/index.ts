// @aalis/api-memory-vector: the long-term memory contract (向量记忆). Every archived message is indexed; a search
// answers with past messages a given session's participants could have seen (the same session, the same room, the
// same person's own words in rooms; nothing private reaches a room or another person), and forgetting removes a
// message from every index. Implemented by @aalis/plugin-memory-vector.
import { defineService, type ServiceDescriptor } from '@aalis/core';
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
  /** Resolves when everything the archive stored so far is indexed. */
  settled(): Promise<void>;
}

export const memoryVector: ServiceDescriptor<MemoryVectorService> = defineService<MemoryVectorService>('memoryVector');
