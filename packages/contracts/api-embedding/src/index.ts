// @aalis/api-embedding: the embedding contract. `embedding` turns texts into unit vectors of one model and one
// dimension (`embed(texts, { signal })`, `model`, `dimensions`, `batchSize`) and rejects with the coded errors of
// `embeddingErrors`. Implemented by @aalis/plugin-embedding-openai; used by @aalis/plugin-memory-vector.
export { embeddingErrors } from './embedding-errors.js';
export {
  type EmbeddingService,
  type EmbedOptions,
  embedding,
  normalizeVector,
} from './embedding-service.js';
