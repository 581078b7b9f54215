// Keeps dense vectors in step with the full-text index, in the background: it pulls the entries that still need a
// vector from the store (in the order they were added), one batch at a time (the backpressure: nothing waits in
// memory, a slow endpoint only slows this loop), takes what the cache by content hash has, embeds the rest in one
// call, and stores them. An endpoint that fails or answers vectors of the wrong length is logged with a coded error
// and tried again later with a growing delay; meanwhile recall uses full text alone and nothing is lost or blocked.
// Vectors of another model than the configured one are never mixed: dense recall stays off until a re-index.
import { type EmbeddingService, embeddingErrors } from '@aalis/api-embedding';
import { AalisError, type Logger } from '@aalis/core';
import { contentHash } from './content-hash.js';
import { memoryVectorErrors } from './memory-vector-errors.js';
import {
  EMBEDDED_CHARS,
  type EntryVector,
  type RecallHit,
  type RecallScope,
  type RecallStore,
  type UnembeddedEntry,
  type VectorModel,
} from './recall-store.js';

/** Most entries taken per round (each round is one embedding call at most). */
export const MAX_VECTOR_BATCH = 256;
const FIRST_RETRY_MS = 5_000;
const LONGEST_RETRY_MS = 300_000;
/** Query vectors kept (a turn's text embedded once, the repeated turns of a snapshot too). */
const QUERY_CACHE = 200;

export type VectorIndexState = 'off' | 'indexing' | 'ready' | 'failing' | 'stale';

export interface VectorIndexStatus {
  state: VectorIndexState;
  model?: string;
  dimensions?: number;
  /** Why the state is failing or stale. */
  error?: AalisError;
}

export interface VectorIndexerOptions {
  store: RecallStore;
  /** The embedding service now, if one is configured. */
  embedding(): EmbeddingService | undefined;
  log: Logger;
  /** How long embedding a turn's text for recall may take before recall goes on with full text. */
  queryTimeoutMs: number;
}

export class VectorIndexer {
  private cursor = 0;
  private running: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelay = 0;
  private retryAt = 0;
  private stopped = false;
  private model: VectorModel | undefined;
  private modelRead = false;
  private error: AalisError | undefined;
  private staleReported: string | undefined;
  private readonly queryVectors = new Map<string, Float32Array>();

  constructor(private readonly options: VectorIndexerOptions) {}

  /** New entries were written: embed them when the loop is free. */
  kick(): void {
    if (this.stopped || this.running || this.retryTimer || !this.options.embedding()) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** Entries were removed: positions may be taken again (SQLite reuses the highest one), look from the start. */
  rewind(): void {
    this.cursor = 0;
  }

  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.settled();
  }

  async status(): Promise<VectorIndexStatus> {
    const service = this.options.embedding();
    if (!service) return { state: 'off' };
    const stored = await this.storedModel();
    const base = { model: service.model, ...(stored ? { dimensions: stored.dimensions } : {}) };
    if (stored && stored.model !== service.model)
      return { ...base, state: 'stale', error: this.staleError(stored, service) };
    if (this.error) return { ...base, state: 'failing', error: this.error };
    return { ...base, state: (await this.options.store.unembedded(0, 1)).length > 0 ? 'indexing' : 'ready' };
  }

  /**
   * The scope's entries nearest to a turn's text, or undefined when dense recall cannot answer now (no endpoint,
   * vectors of another model, the endpoint failing or too slow): recall then uses full text alone.
   */
  async nearest(
    text: string,
    scope: RecallScope,
    limit: number,
    signal?: AbortSignal,
  ): Promise<RecallHit[] | undefined> {
    const service = this.options.embedding();
    if (!service || this.stopped) return undefined;
    const stored = await this.storedModel();
    if (!stored || stored.model !== service.model) return undefined;
    if (this.error && Date.now() < this.retryAt) return undefined;
    const query = text.slice(0, EMBEDDED_CHARS);
    const key = contentHash(query);
    let vector = this.queryVectors.get(key);
    if (!vector) {
      const timeout = AbortSignal.timeout(this.options.queryTimeoutMs);
      try {
        [vector] = await service.embed([query], { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      } catch (error) {
        if (signal?.aborted) return undefined;
        this.failed(error, 'recall');
        return undefined;
      }
      if (!vector || vector.length !== stored.dimensions) {
        this.failed(this.mismatch(service, stored.dimensions, vector?.length ?? 0), 'recall');
        return undefined;
      }
      this.recovered();
      this.queryVectors.set(key, vector);
      if (this.queryVectors.size > QUERY_CACHE) this.queryVectors.delete(this.queryVectors.keys().next().value!);
    }
    return this.options.store.nearest({ vector, scope, limit });
  }

  /**
   * Drops every vector and embeds every entry again with the configured model (after a change of model), reporting
   * progress; rejects with the coded error that stopped it (what was embedded stays, a later start goes on).
   */
  async reindex(onProgress?: (progress: { embedded: number; total: number }) => void): Promise<VectorModel> {
    const service = this.options.embedding();
    if (!service) throw memoryVectorErrors.AALIS_MEMORY_VECTOR_NO_EMBEDDING();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.settled();
    const dimensions = service.dimensions ?? (await service.embed(['dimension probe']))[0]?.length ?? 0;
    const model = { model: service.model, dimensions };
    await this.options.store.resetVectors(model);
    this.model = model;
    this.modelRead = true;
    this.cursor = 0;
    this.queryVectors.clear();
    this.error = undefined;
    this.staleReported = undefined;
    const total = await this.options.store.count();
    onProgress?.({ embedded: 0, total });
    let embedded = 0;
    for (;;) {
      const added = await this.round(service, true);
      if (added === undefined) break;
      embedded += added;
      onProgress?.({ embedded, total });
    }
    return model;
  }

  private async storedModel(): Promise<VectorModel | undefined> {
    if (!this.modelRead) {
      this.model = await this.options.store.vectorModel();
      this.modelRead = true;
    }
    return this.model;
  }

  private async drain(): Promise<void> {
    // Appends of one turn arrive together: a tick lets the full-text batch land first.
    await new Promise((resolve) => setImmediate(resolve));
    const service = this.options.embedding();
    if (!service) return;
    try {
      let rounds = 0;
      for (;;) {
        if (this.stopped || this.options.embedding() !== service) return;
        if ((await this.round(service, false)) === undefined) break;
        rounds += 1;
      }
      // Only a round that embedded something says the endpoint answers again.
      if (rounds > 0) this.recovered();
    } catch (error) {
      this.failed(error, 'index');
    }
  }

  /** Embeds one batch; the number stored, or undefined when nothing was left (or the vectors are stale). */
  private async round(service: EmbeddingService, throwing: boolean): Promise<number | undefined> {
    let stored = await this.storedModel();
    if (stored && stored.model !== service.model) {
      const error = this.staleError(stored, service);
      if (throwing) throw error;
      if (this.staleReported !== service.model) this.options.log.warn(error.message, { code: error.code });
      this.staleReported = service.model;
      return undefined;
    }
    const pending = await this.options.store.unembedded(this.cursor, Math.min(service.batchSize * 4, MAX_VECTOR_BATCH));
    if (pending.length === 0) return undefined;
    const vectors = await this.vectorsOf(pending, service, stored);
    if (!stored) {
      // The first vectors ever: they fix the model and the dimension the index holds.
      stored = { model: service.model, dimensions: vectors[0]?.vector.length ?? 0 };
      await this.options.store.resetVectors(stored);
      this.model = stored;
    }
    const added = await this.options.store.addVectors(vectors);
    this.cursor = pending.at(-1)!.position;
    return added;
  }

  private async vectorsOf(
    pending: readonly UnembeddedEntry[],
    service: EmbeddingService,
    stored: VectorModel | undefined,
  ): Promise<EntryVector[]> {
    const hashes = pending.map((item) => contentHash(item.text));
    const cached = stored ? await this.options.store.cachedVectors(hashes) : new Map<string, Float32Array>();
    const missing = [...new Set(hashes.filter((hash) => !cached.has(hash)))];
    if (missing.length > 0) {
      const textOf = new Map(pending.map((item, index) => [hashes[index]!, item.text]));
      const vectors = await service.embed(missing.map((hash) => textOf.get(hash)!));
      const dimensions = stored?.dimensions ?? vectors[0]?.length ?? 0;
      vectors.forEach((vector, index) => {
        if (vector.length !== dimensions) throw this.mismatch(service, dimensions, vector.length);
        cached.set(missing[index]!, vector);
      });
    }
    return pending.map((item, index) => ({
      messageId: item.messageId,
      hash: hashes[index]!,
      vector: cached.get(hashes[index]!)!,
    }));
  }

  private recovered(): void {
    if (this.error) this.options.log.info('long-term memory vectors: the embedding endpoint answers again');
    this.error = undefined;
    this.retryDelay = 0;
  }

  private mismatch(service: EmbeddingService, expected: number, got: number): AalisError {
    return embeddingErrors.AALIS_EMBEDDING_DIMENSION_MISMATCH({
      endpoint: service.model,
      model: service.model,
      got,
      expected,
    });
  }

  private staleError(stored: VectorModel, service: EmbeddingService): AalisError {
    return memoryVectorErrors.AALIS_MEMORY_VECTOR_MODEL_CHANGED({ stored: stored.model, configured: service.model });
  }

  /** Logs a coded error, keeps it for the status, and tries again later with a growing delay. */
  private failed(error: unknown, during: 'index' | 'recall'): void {
    this.retryDelay = Math.min(Math.max(FIRST_RETRY_MS, this.retryDelay * 2), LONGEST_RETRY_MS);
    this.retryAt = Date.now() + this.retryDelay;
    const cause = AalisError.isInstance(error) ? error : undefined;
    const reason = cause ? `${cause.code}: ${cause.message}` : error instanceof Error ? error.message : String(error);
    this.error = memoryVectorErrors.AALIS_MEMORY_VECTOR_EMBEDDING_FAILED(
      { reason, seconds: Math.round(this.retryDelay / 1000) },
      { cause: error },
    );
    this.options.log.warn(this.error.message, {
      code: this.error.code,
      ...(cause ? { cause: cause.code } : {}),
      during,
    });
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.kick();
    }, this.retryDelay);
    this.retryTimer.unref();
  }
}
