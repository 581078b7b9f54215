// Dense vectors on SQLite through sqlite-vec (a maintained extension, from npm with its prebuilt library): a vec0
// table keyed by the entry's seq, with the scope as metadata columns so a nearest-neighbour query scans only what
// the scope may see. The extension is loaded only once vectors are used, so a deployment without an embedding
// endpoint never loads it. The table's dimension is fixed when it is made: a re-index drops and makes it again.
import { createRequire } from 'node:module';
import type { SqliteDatabase } from '@aalis/sqlite';
import { memoryVectorErrors } from './memory-vector-errors.js';
import type { RecallScope, VectorModel } from './recall-store.js';

const MODEL_MARK = 'vector-model';
const loaded = new WeakSet<object>();

/** Loads sqlite-vec into the database's connection (once); a coded error when this platform has no build of it. */
function loadExtension(database: SqliteDatabase): void {
  if (loaded.has(database.connection)) return;
  try {
    const require = createRequire(import.meta.url);
    const sqliteVec = require('sqlite-vec') as { load(db: unknown): void };
    sqliteVec.load(database.connection);
  } catch (error) {
    throw memoryVectorErrors.AALIS_MEMORY_VECTOR_EXTENSION_MISSING(
      {
        reason: error instanceof Error ? error.message : String(error),
        platform: `${process.platform}-${process.arch}`,
      },
      { cause: error },
    );
  }
  loaded.add(database.connection);
}

const bytes = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

export class SqliteVectors {
  private model: VectorModel | undefined;

  constructor(private readonly database: SqliteDatabase) {
    const mark = database.statement('SELECT value FROM recall_marks WHERE key = ?').get(MODEL_MARK) as
      | { value: string }
      | undefined;
    this.model = mark ? (JSON.parse(mark.value) as VectorModel) : undefined;
  }

  current(): VectorModel | undefined {
    return this.model;
  }

  /** Whether a vector table exists (then forgetting an entry must reach it). */
  get active(): boolean {
    return this.model !== undefined;
  }

  reset(model: VectorModel): void {
    loadExtension(this.database);
    this.database.write((connection) => {
      connection.exec('DROP TABLE IF EXISTS recall_vectors');
      connection.exec(
        `CREATE VIRTUAL TABLE recall_vectors USING vec0(embedding float[${Math.trunc(model.dimensions)}] distance_metric=cosine, audience text, person text, session_id text)`,
      );
      connection.exec('UPDATE recall_entries SET embedded = 0 WHERE embedded = 1');
      connection.exec('DELETE FROM recall_vector_cache');
      connection
        .prepare(
          'INSERT INTO recall_marks (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
        )
        .run(MODEL_MARK, JSON.stringify(model));
    });
    this.model = model;
  }

  /** Within a write: removes entries' vectors (and their cached ones) by seq. */
  remove(seqs: readonly number[], hashes: readonly string[]): void {
    if (!this.model) return;
    loadExtension(this.database);
    const deleteVector = this.database.connection.prepare('DELETE FROM recall_vectors WHERE rowid = ?');
    for (const seq of seqs) deleteVector.run(BigInt(seq));
    const deleteCached = this.database.connection.prepare('DELETE FROM recall_vector_cache WHERE hash = ?');
    for (const hash of hashes) deleteCached.run(hash);
  }

  /** Within a write: stores one entry's vector. */
  insert(seq: number, vector: Float32Array, scope: { audience: string; person: string | null; session: string }): void {
    this.database.connection
      .prepare('INSERT INTO recall_vectors (rowid, embedding, audience, person, session_id) VALUES (?, ?, ?, ?, ?)')
      .run(BigInt(seq), bytes(vector), scope.audience, scope.person ?? '', scope.session);
  }

  cache(hash: string, vector: Float32Array): void {
    this.database.connection
      .prepare('INSERT INTO recall_vector_cache (hash, vector) VALUES (?, ?) ON CONFLICT(hash) DO NOTHING')
      .run(hash, bytes(vector));
  }

  cached(hashes: readonly string[]): Map<string, Float32Array> {
    const found = new Map<string, Float32Array>();
    if (!this.model) return found;
    const lookup = this.database.statement('SELECT vector FROM recall_vector_cache WHERE hash = ?');
    for (const hash of hashes) {
      const row = lookup.get(hash) as { vector: Buffer } | undefined;
      if (row)
        found.set(
          hash,
          new Float32Array(
            row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength),
          ),
        );
    }
    return found;
  }

  /** Seqs nearest to the vector in the scope, best first, with their cosine similarity. */
  nearest(vector: Float32Array, scope: RecallScope, limit: number): { seq: number; similarity: number }[] {
    if (!this.model || vector.length !== this.model.dimensions || limit <= 0) return [];
    loadExtension(this.database);
    const query = bytes(vector);
    // One k-nearest query per part of the scope (vec0 filters metadata while it scans), merged.
    const parts: [string, readonly string[]][] = [
      ['session_id', [scope.sessionId]],
      ['audience', scope.audiences],
      ['person', scope.persons],
    ];
    const best = new Map<number, number>();
    for (const [column, values] of parts) {
      if (values.length === 0) continue;
      const rows = this.database.connection
        .prepare(
          `SELECT rowid AS seq, distance FROM recall_vectors WHERE embedding MATCH ? AND k = ? AND ${column} IN (${values.map(() => '?').join(', ')})`,
        )
        .all(query, limit, ...values) as { seq: number; distance: number }[];
      for (const row of rows) {
        const similarity = 1 - row.distance;
        if ((best.get(Number(row.seq)) ?? Number.NEGATIVE_INFINITY) < similarity) best.set(Number(row.seq), similarity);
      }
    }
    return [...best]
      .map(([seq, similarity]) => ({ seq, similarity }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, limit);
  }

  count(): number {
    if (!this.model) return 0;
    return (
      this.database.statement('SELECT count(*) AS n FROM recall_entries WHERE embedded = 1').get() as { n: number }
    ).n;
  }
}
