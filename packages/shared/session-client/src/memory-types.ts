// What the Memory page's requests carry (docs/session-protocol.md 「Memory」): what she remembers per person (profile
// facts) and per place (skills), what long-term memory recalled lately and why, and searching all of it. The owner
// sees everyone's; another account only its own (its person, its private scope, its own sessions).

/** A person as the page lists them: `owner` or `<platform>:<userId>`. */
export interface MemoryPersonView {
  person: string;
  facts: number;
  lastAt: number;
}

export interface MemoryFactView {
  id: string;
  person: string;
  fact: string;
  at: number;
  source?: 'tool' | 'extraction' | 'page';
}

export interface MemorySkillView {
  id: string;
  name: string;
  content: string;
  /** `global`, `room:<platform>:<venue>` or `private:<person>`. */
  scope: string;
  by?: string;
  createdAt: number;
  updatedAt: number;
}

/** A past message long-term memory holds, as a search found it. */
export interface MemoryMessageView {
  messageId: string;
  sessionId: string;
  audience: string;
  speaker?: string;
  role: 'user' | 'assistant';
  at: number;
  text: string;
}

/** A past message a turn's recall carried, with why: the query terms found in it, `vector`, or `neighbour`. */
export interface MemoryRecalledItemView {
  messageId: string;
  sessionId: string;
  audience: string;
  speaker?: string;
  at: number;
  text: string;
  score: number;
  matched: string[];
}

/** One turn's recall: what it searched with and what came back. */
export interface MemoryRecallView {
  sessionId: string;
  at: number;
  terms: string[];
  items: MemoryRecalledItemView[];
}

/** Long-term memory's state: messages indexed, and the dense vectors' state with its coded error, translated. */
export interface MemoryIndexView {
  indexed: number;
  vectors: {
    state: 'off' | 'indexing' | 'ready' | 'failing' | 'stale';
    model?: string;
    embedded: number;
    error?: { code: string; message: string };
  };
}

/** What `memory.list` answers: the people and places visible to the account, and the selected ones' memory. */
export interface MemoryListResult {
  /** The account sees everyone's memory (the owner). */
  all: boolean;
  /** The person the facts are of (the account's own unless the owner chose another). */
  person: string;
  people: MemoryPersonView[];
  facts: MemoryFactView[];
  /** The scopes with skills the account may see. */
  scopes: string[];
  skills: MemorySkillView[];
  /** Recent recalls in the sessions the account may see; absent when long-term memory keeps no such record. */
  recalls?: MemoryRecallView[];
  /** Long-term memory's index (owner only). */
  index?: MemoryIndexView;
  /** Which parts run: the profile, skills and long-term memory plugins. */
  available: { profiles: boolean; skills: boolean; recall: boolean };
}

export type MemoryItemKind = 'fact' | 'skill';

export interface MemoryRequests {
  'memory.list': { params: { person?: string; scope?: string }; result: MemoryListResult };
  'memory.search': {
    params: { query: string; limit?: number };
    result: { facts: MemoryFactView[]; skills: MemorySkillView[]; messages: MemoryMessageView[] };
  };
  'memory.update': {
    /** A fact's new text, or a skill's new name and/or steps (`itemId`: `id` names the request frame). */
    params: { kind: MemoryItemKind; itemId: string; text?: string; name?: string };
    result: { fact?: MemoryFactView; skill?: MemorySkillView };
  };
  'memory.delete': {
    params: { kind: MemoryItemKind; itemId: string };
    /** `messages`: what the person said about a forgotten fact, removed from long-term memory's indexes. */
    result: { deleted: boolean; messages: number };
  };
}

export const MEMORY_REQUESTS = ['memory.list', 'memory.search', 'memory.update', 'memory.delete'] as const;
