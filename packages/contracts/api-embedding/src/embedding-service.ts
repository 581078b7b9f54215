// The embedding service: texts in, one vector per text out, all of one model and one dimension. A consumer keys
// what it stores by `model` and `dimensions` (vectors of two models are not comparable) and re-indexes when they
// change.
import { defineService, type ServiceDescriptor } from '@aalis/core';

export interface EmbedOptions {
  signal?: AbortSignal;
}

export interface EmbeddingService {
  /**
   * The model's identity as stored with vectors: `<provider instance>/<model>` plus the requested dimension when
   * one is set (`openai/text-embedding-3-small@256`), so a change of either makes stored vectors stale.
   */
  readonly model: string;
  /** The vectors' length when it is known before the first call (configured), else learned from the first answer. */
  readonly dimensions: number | undefined;
  /** The most texts one call takes; larger inputs are split by the provider, callers may rely on it or batch. */
  readonly batchSize: number;
  /**
   * One vector per text, in order, each of length `dimensions` and unit length (cosine similarity is a dot
   * product). Rejects with a coded error (`embeddingErrors`), never with a partial answer.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

export const embedding: ServiceDescriptor<EmbeddingService> = defineService<EmbeddingService>('embedding');

/** Scales a vector to unit length (a zero vector stays zero). */
export function normalizeVector(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm === 0 || !Number.isFinite(norm)) return vector;
  const unit = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index += 1) unit[index] = (vector[index] ?? 0) / norm;
  return unit;
}
