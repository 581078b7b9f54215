// Where long-term memory keeps what it can recall: one row per archived message (who said it, when, where, who may
// see it) with its full-text terms, in the storage engine's database. Two implementations (SQLite FTS5,
// PostgreSQL tsvector) run one conformance suite (recall-store.case.ts).

/**
 * Who may see a message: `room:<platform>:<venue>` for a multi-party room, `private:<person>` for a conversation
 * with one person (private chats, WebUI, terminal; a child session takes its root's), `private:session:<root id>`
 * while that person is unknown.
 */
export type Audience = string;

export interface RecallEntry {
  /** The archive's message id (an entry is added once per id). */
  messageId: string;
  sessionId: string;
  audience: Audience;
  /**
   * The speaker's person key for words said in a multi-party room: they may follow that person to other rooms
   * and to their private chats. Absent for private words and for her own.
   */
  person?: string;
  /** How the speaker is named in the recalled block; absent for her own words. */
  speaker?: string;
  role: 'user' | 'assistant';
  turnId?: string;
  /** When it was said, milliseconds since the epoch. */
  at: number;
  /** The words as recalled (without the archive's time prefix). */
  text: string;
  /**
   * The words said just before it in its session: indexed with it (not stored), so a question finds its answer and
   * an answer the question it answers.
   */
  context?: string;
}

/** What a recall may draw from: the session itself, whole audiences, and people's own words in rooms. */
export interface RecallScope {
  sessionId: string;
  audiences: readonly Audience[];
  persons: readonly string[];
}

export interface RecallQuery {
  /** queryTerms(...) of @aalis/util-text-search. */
  terms: readonly string[];
  scope: RecallScope;
  /** At most this many hits, best first. */
  limit: number;
  /**
   * Also find entries by the words said just before them (at CONTEXT_WEIGHT): a turn's recall does, so a question
   * finds its answer; a search for what was said (the Memory page, forgetting) does not.
   */
  context?: boolean;
}

export interface RecallHit extends RecallEntry {
  /** Relevance, higher is better; comparable within one answer only. */
  score: number;
}

export interface RecallStore {
  /** Adds entries whose message id is not stored yet, in one write; returns how many were new. */
  add(entries: readonly RecallEntry[]): Promise<number>;
  /** Entries of the scope matching any term, best first. */
  search(query: RecallQuery): Promise<RecallHit[]>;
  /**
   * For each of `messageIds`: up to `before` entries said just before it in its session and `after` just after, in
   * time order, without the entry itself (an id not stored has no key). One call for all of a turn's matches that
   * bring their neighbours.
   */
  around(messageIds: readonly string[], before: number, after: number): Promise<Map<string, RecallEntry[]>>;
  /** Entries by message id (missing ids are left out). */
  get(messageIds: readonly string[]): Promise<RecallEntry[]>;
  /** Forgets sessions (every session when undefined); returns how many entries went. */
  deleteSessions(sessionIds: readonly string[] | undefined): Promise<number>;
  /** Forgets a rolled-back turn's entries of one session. */
  deleteTurn(sessionId: string, turnId: string): Promise<number>;
  /** Forgets single messages. */
  deleteMessages(messageIds: readonly string[]): Promise<number>;
  /** How many entries are stored. */
  count(): Promise<number>;
  /**
   * Indexes up to `limit` stored entries a migration left out of the full-text index (SQLite's migration 3 rebuilt
   * it: the plugin fills it again in the background after start, oldest first); undefined when none is left. Stores
   * that never leave entries out do not have it.
   */
  backfill?(limit: number): Promise<{ indexed: number; left: number } | undefined>;
  /** The embedding model the stored vectors belong to; undefined while none was set. */
  vectorModel(): Promise<VectorModel | undefined>;
  /** Forgets every stored vector (and the cache) and sets the model they will belong to: a re-index. */
  resetVectors(model: VectorModel): Promise<void>;
  /** Entries after `after` (their `position`) that have no vector yet, in the order they were added. */
  unembedded(after: number, limit: number): Promise<UnembeddedEntry[]>;
  /**
   * Stores vectors of entries (entries forgotten meanwhile are skipped) and caches each under its content hash;
   * returns how many entries got one. Every vector has the model's dimension.
   */
  addVectors(vectors: readonly EntryVector[]): Promise<number>;
  /** Vectors cached under these content hashes (of the current model). */
  cachedVectors(hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Entries of the scope nearest to a unit vector, best first; `score` is the cosine similarity. */
  nearest(query: { vector: Float32Array; scope: RecallScope; limit: number }): Promise<RecallHit[]>;
  /** How many entries have a vector. */
  vectorCount(): Promise<number>;
  /** A small persisted note (catch-up progress). */
  mark(key: string): Promise<string | undefined>;
  setMark(key: string, value: string): Promise<void>;
}

/** What the stored vectors are: the embedding service's model id and the vectors' length. */
export interface VectorModel {
  model: string;
  dimensions: number;
}

export interface UnembeddedEntry {
  /** Where the entry stands in the order entries were added (pass the last one as `after` to go on). */
  position: number;
  messageId: string;
  /** embeddedText(entry). */
  text: string;
}

export interface EntryVector {
  messageId: string;
  /** contentHash(text) of the text the vector was computed from. */
  hash: string;
  vector: Float32Array;
}

/** The most characters of an entry that are embedded (models take ~8k tokens; the gist is at the start). */
export const EMBEDDED_CHARS = 2000;

/** The text an entry's vector is computed from: its speaker and words, cut to EMBEDDED_CHARS. */
export function embeddedText(entry: Pick<RecallEntry, 'speaker' | 'text'>): string {
  return searchedText(entry).slice(0, EMBEDDED_CHARS);
}

/** Table and migration namespace of both engines. */
export const RECALL_NAMESPACE = 'memory-vector';

/** What an entry is found by: its words and who said them ("what did Ann say about…" names the speaker). */
export function searchedText(entry: Pick<RecallEntry, 'speaker' | 'text'>): string {
  return entry.speaker === undefined ? entry.text : `${entry.speaker}\n${entry.text}`;
}

/** The most characters of the previous message indexed with an entry. */
export const CONTEXT_CHARS = 300;

/**
 * How much a query word found only in the words said before an entry counts against one found in the entry itself:
 * enough to bring up an answer whose question held the words, too little for a bare "ok" after them to outrank
 * what was said about them.
 */
export const CONTEXT_WEIGHT = 0.6;

/** The part of the previous message indexed with an entry. */
export function contextText(before: string): string {
  return before.slice(0, contextCut(before));
}

/** A space or punctuation mark: ICU breaks words after it. */
const WORD_BREAK = /[\s\p{P}]/u;

/**
 * Where contextText cuts a long message: after the last space or punctuation mark within CONTEXT_CHARS (its terms are
 * then the start of the whole text's: entry-terms.ts tokenises each text once), else at CONTEXT_CHARS.
 */
export function contextCut(text: string): number {
  if (text.length <= CONTEXT_CHARS) return text.length;
  for (let i = CONTEXT_CHARS; i > CONTEXT_CHARS / 2; i -= 1) if (WORD_BREAK.test(text.charAt(i - 1))) return i;
  return CONTEXT_CHARS;
}
