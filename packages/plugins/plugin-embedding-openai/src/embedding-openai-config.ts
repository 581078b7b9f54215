// plugins.embedding-openai: where the OpenAI-compatible /embeddings endpoint is, which model, how many texts a call
// carries, and the transport settings every provider shares.
import { type Infer, s } from '@aalis/core';
import { bearerKeySchema, caFileSchema, proxySchema, retrySchema } from '@aalis/http-transport/config-schema';

export const embeddingOpenAiConfigSchema = s
  .object({
    baseUrl: s
      .string()
      .nonEmpty()
      .describe(
        'Base URL of an OpenAI-compatible embeddings API; /embeddings is appended (https://api.openai.com/v1, or http://127.0.0.1:11434/v1 for Ollama).',
      ),
    apiKey: bearerKeySchema,
    model: s
      .string()
      .nonEmpty()
      .default('text-embedding-3-small')
      .describe('The embedding model (text-embedding-3-small, bge-m3, nomic-embed-text …).'),
    dimensions: s
      .number()
      .integer()
      .min(1)
      .max(8192)
      .optional()
      .describe(
        'Length of the vectors asked for (models that can shorten them: text-embedding-3-*); unset = the model’s own. Changing it, or the model, needs aalis memory reindex.',
      ),
    batchSize: s.number().integer().min(1).max(2048).default(64).describe('Most texts sent in one request.'),
    maxInputChars: s
      .number()
      .integer()
      .min(100)
      .max(100_000)
      .default(4000)
      .describe('A longer text is cut to this many characters before it is embedded (models take ~8k tokens).'),
    timeoutMs: s
      .number()
      .integer()
      .min(1000)
      .default(30_000)
      .describe('How long the server may stay silent before a request fails.'),
    proxy: proxySchema,
    caFile: caFileSchema,
    retry: retrySchema,
  })
  .describe(
    'Embeddings for long-term memory’s dense recall through an OpenAI-compatible /embeddings endpoint. Unset: memory recalls by full text alone.',
  );

export type EmbeddingOpenAiConfig = Infer<typeof embeddingOpenAiConfigSchema>;
