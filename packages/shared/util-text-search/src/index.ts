// @aalis/util-text-search: search terms for full-text indexes, the same for SQLite FTS5 and PostgreSQL: Chinese
// word segmentation (Intl.Segmenter), English stemming, stop words, and queries that never parse user text as
// syntax. Shared by every full-text index in the product (long-term memory, session search).
export { fts5AnyOf, MAX_QUERY_TERMS, queryTerms } from './query-terms.js';
export { indexText, MAX_INDEXED_CHARS, MAX_TERM_CHARS, searchTerms } from './search-terms.js';
export { isStopWord, STOP_WORDS } from './stop-words.js';
