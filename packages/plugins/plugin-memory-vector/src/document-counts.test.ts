import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '@aalis/sqlite';
import { indexText, searchTerms } from '@aalis/util-text-search';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMON_COUNT, DocumentCounts } from './document-counts.js';

let dir: string;
let database: SqliteDatabase;
let reads: string[];
let counts: DocumentCounts;

const vocabulary = (term: string) =>
  (
    database.connection.prepare("SELECT doc FROM recall_vocab WHERE term = ? AND col = 'terms'").get(term) as
      | { doc: number }
      | undefined
  )?.doc ?? 0;

/** Adds an entry through this connection, as the store does: the FTS row and the counts in one write. */
function add(text: string): void {
  database.write((connection) => {
    connection.prepare('INSERT INTO recall_fts (terms) VALUES (?)').run(indexText(text));
    counts.added(searchTerms(text));
  });
}

/** A commit of another connection (another process sharing the data directory). */
function commitElsewhere(terms: string): void {
  const other = new SqliteDatabase(join(dir, 'aalis.db'));
  other.write((connection) => connection.prepare('INSERT INTO recall_fts (terms) VALUES (?)').run(terms));
  other.close();
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-document-counts-'));
  database = new SqliteDatabase(join(dir, 'aalis.db'));
  database.write((connection) =>
    connection.exec(`CREATE VIRTUAL TABLE recall_fts USING fts5(terms, content='', contentless_delete=1,
      tokenize='unicode61 remove_diacritics 0');
      CREATE VIRTUAL TABLE recall_vocab USING fts5vocab(recall_fts, 'col');`),
  );
  reads = [];
  counts = new DocumentCounts(database, (term) => {
    reads.push(term);
    return vocabulary(term);
  });
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const terms = ['appl', 'pear', 'plum', '苹果'];
const indexCounts = () => new Map(terms.map((term) => [term, vocabulary(term)]));

describe('DocumentCounts', () => {
  it('reads each term once, then follows this connection’s additions exactly (a term repeated in an entry counts once)', () => {
    add('Apples and pears, apples again');
    expect(counts.of(terms, 1)).toEqual(indexCounts());
    expect(reads.sort()).toEqual([...terms].sort());
    add('Plum and apple');
    add('我喜欢苹果 and plums');
    reads = [];
    expect(counts.of(terms, 3)).toEqual(
      new Map([
        ['appl', 2],
        ['pear', 1],
        ['plum', 2],
        ['苹果', 1],
      ]),
    );
    expect(counts.of(terms, 3)).toEqual(indexCounts());
    expect(reads).toEqual([]);
  });

  it('reads again after another connection committed, after a rolled-back write and after a removal', () => {
    add('apple');
    expect(counts.of(terms, 1).get('appl')).toBe(1);
    commitElsewhere('appl pear');
    reads = [];
    expect(counts.of(terms, 2)).toEqual(indexCounts());
    expect(reads.length).toBe(terms.length);

    expect(() =>
      database.write((connection) => {
        connection.prepare('INSERT INTO recall_fts (terms) VALUES (?)').run('appl');
        counts.added(['appl']);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    reads = [];
    expect(counts.of(terms, 2)).toEqual(indexCounts());
    expect(reads.length).toBe(terms.length);

    database.write((connection) => connection.prepare('DELETE FROM recall_fts WHERE rowid = 1').run());
    counts.removed();
    reads = [];
    expect(counts.of(terms, 1)).toEqual(indexCounts());
    expect(reads.length).toBe(terms.length);
  });

  it('keeps a common term’s count across other connections’ commits until the index grew by a tenth', () => {
    let readsOfCommon = 0;
    const counted = new DocumentCounts(database, (term) => {
      readsOfCommon += 1;
      return term === 'appl' ? COMMON_COUNT : 3;
    });
    expect(counted.of(['appl', 'pear'], 10_000)).toEqual(
      new Map([
        ['appl', COMMON_COUNT],
        ['pear', 3],
      ]),
    );
    commitElsewhere('appl');
    readsOfCommon = 0;
    counted.of(['appl', 'pear'], 10_500);
    // The rare one is read again, the common one is not...
    expect(readsOfCommon).toBe(1);
    readsOfCommon = 0;
    // ...until the index has grown by more than a tenth.
    counted.of(['appl'], 11_200);
    expect(readsOfCommon).toBe(1);
  });
});
