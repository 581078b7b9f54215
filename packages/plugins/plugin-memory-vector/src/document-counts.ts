// How many entries hold each query term (the full-text index's own counts, read through fts5vocab), kept in memory:
// a term is read once, then moved on by this connection's own additions, so the count stays exact until the index may
// have changed otherwise — another connection committed or a write of this one rolled back (SqliteDatabase.
// changeToken: one PRAGMA data_version per recall instead of one vocabulary walk per term) or entries were removed —
// and is read again then; a common term's count is kept across such changes as before (COMMON_COUNT). Reading every
// term at each recall was 7 % of the product's CPU per tool turn (18 lookups per turn in `npm run bench peers`).
import type { ChangeTokens } from '@aalis/sqlite';

/** Terms whose count is kept at most (in each of the two maps below); past it a map starts again. */
export const MAX_COUNTED_TERMS = 50_000;
/**
 * A term held by this many entries or more is common: its count is also kept across other connections' commits until
 * the index has grown by a tenth (it changes little, only the choice of terms depends on it, and reading it again
 * at a million entries costs up to a few hundred milliseconds).
 */
export const COMMON_COUNT = 1_000;

export class DocumentCounts {
  /** Exact counts, valid while the change token stays the same. */
  private readonly exact = new Map<string, number>();
  /** Common terms' counts with the index size they were read at, kept across change tokens. */
  private readonly common = new Map<string, { count: number; atTotal: number }>();
  private token = Number.NaN;

  /**
   * `read(term)` asks the index how many entries hold the term. A term is what searchTerms gives (lower-case
   * letters and digits), which FTS5's unicode61 tokenizer keeps whole, so an entry stored with it adds one.
   */
  constructor(
    private readonly database: ChangeTokens,
    private readonly read: (term: string) => number,
    private readonly limit = MAX_COUNTED_TERMS,
  ) {}

  /** The count of each of these terms, in an index of `total` entries. */
  of(terms: readonly string[], total: number): Map<string, number> {
    // Checked before any read: a commit landing after it makes the next recall read again, never keeps a stale count.
    const token = this.database.changeToken();
    if (token !== this.token) {
      this.exact.clear();
      this.token = token;
    }
    const found = new Map<string, number>();
    for (const term of terms) {
      let count = this.exact.get(term);
      if (count === undefined) {
        const known = this.common.get(term);
        if (known && total <= known.atTotal * 1.1 + 100) count = known.count;
        else {
          count = this.read(term);
          this.exact.set(term, count);
          if (this.exact.size > this.limit) this.exact.clear();
          if (count >= COMMON_COUNT) {
            if (this.common.size >= this.limit) this.common.clear();
            this.common.set(term, { count, atTotal: total });
          }
        }
      }
      found.set(term, count);
    }
    return found;
  }

  /**
   * An entry holding these terms (repeats allowed) was added by this connection, inside the write that stores it: a
   * rollback of that write moves the change token on, which drops every exact count.
   */
  added(terms: readonly string[]): void {
    if (this.exact.size === 0) return;
    const seen = new Set<string>();
    for (const term of terms) {
      if (seen.has(term)) continue;
      seen.add(term);
      const count = this.exact.get(term);
      if (count !== undefined) this.exact.set(term, count + 1);
    }
  }

  /** Entries were removed: every exact count is read again. */
  removed(): void {
    this.exact.clear();
  }
}
