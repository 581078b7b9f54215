// Embeddings through an OpenAI-compatible POST <baseUrl>/embeddings over @aalis/http-transport (proxies, extra CAs,
// retries with backoff, stall timeouts shared with every model provider). Texts go in batches of batchSize; the
// answer is checked (one vector per text, every vector of one length, the configured one when set) and each vector
// scaled to unit length. Failures reject with the embedding contract's coded errors; secrets never leave in a text.
import { type EmbeddingService, type EmbedOptions, embeddingErrors, normalizeVector } from '@aalis/api-embedding';
import { AalisError, type I18n, type Logger } from '@aalis/core';
import { ModelEndpoint, maskUrlCredentials } from '@aalis/http-transport';
import type { EmbeddingOpenAiConfig } from './embedding-openai-config.js';

/** Largest answer read: 2,048 vectors of 8,192 floats as JSON stay below this. */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export class OpenAiEmbedder implements EmbeddingService {
  readonly model: string;
  readonly batchSize: number;
  private learnedDimensions: number | undefined;
  /** The endpoint's URL as errors show it (no credentials). */
  private readonly endpoint: string;
  private readonly client: ModelEndpoint;

  constructor(
    private readonly config: EmbeddingOpenAiConfig,
    private readonly options: { i18n: I18n; logger: Logger; plugin: string; instance: string },
  ) {
    this.client = new ModelEndpoint(config, {
      ...options,
      path: '/embeddings',
      invalidUrl: ({ baseUrl, problem }) =>
        embeddingErrors.AALIS_EMBEDDING_URL_INVALID({ key: `plugins.${options.instance}.baseUrl`, baseUrl, problem }),
      retryLog: 'embedding request retried',
    });
    this.endpoint = maskUrlCredentials(this.client.url.href);
    this.model = `${options.instance}/${config.model}${config.dimensions === undefined ? '' : `@${config.dimensions}`}`;
    this.batchSize = config.batchSize;
  }

  get dimensions(): number | undefined {
    return this.config.dimensions ?? this.learnedDimensions;
  }

  redact(text: string): string {
    return this.client.redact(text);
  }

  async embed(texts: readonly string[], { signal }: EmbedOptions = {}): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + this.batchSize), signal)));
    }
    return vectors;
  }

  private async embedBatch(texts: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    // An empty input is refused by OpenAI: a text with nothing to say is sent as one space.
    const input = texts.map((text) => text.slice(0, this.config.maxInputChars) || ' ');
    const body = JSON.stringify({
      model: this.config.model,
      input,
      encoding_format: 'float',
      ...(this.config.dimensions === undefined ? {} : { dimensions: this.config.dimensions }),
    });
    let answer: string;
    try {
      const exchange = await this.client.post(
        body,
        { 'content-type': 'application/json', accept: 'application/json' },
        signal,
      );
      try {
        answer = await exchange.text(MAX_RESPONSE_BYTES);
      } finally {
        exchange.close();
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = AalisError.isInstance(error)
        ? this.options.i18n.t(error.text)
        : error instanceof Error
          ? error.message
          : String(error);
      throw embeddingErrors.AALIS_EMBEDDING_FAILED(
        { endpoint: this.endpoint, model: this.config.model, reason: this.redact(reason) },
        { cause: error },
      );
    }
    return this.vectorsOf(answer, texts.length);
  }

  private vectorsOf(answer: string, expected: number): Float32Array[] {
    const bad = (problem: string) =>
      embeddingErrors.AALIS_EMBEDDING_BAD_RESPONSE({
        endpoint: this.endpoint,
        model: this.config.model,
        problem,
        answer: this.redact(answer.slice(0, 200)),
      });
    let parsed: { data?: unknown };
    try {
      parsed = JSON.parse(answer) as { data?: unknown };
    } catch {
      throw bad('not JSON');
    }
    if (!Array.isArray(parsed.data)) throw bad('no data array');
    if (parsed.data.length !== expected) throw bad(`${parsed.data.length} vectors for ${expected} texts`);
    const slots: (Float32Array | undefined)[] = new Array(expected);
    parsed.data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
      const index = typeof item?.index === 'number' ? item.index : position;
      const values = item?.embedding;
      if (!Array.isArray(values) || values.length === 0 || !values.every((value) => Number.isFinite(value)))
        throw bad(`data[${position}].embedding is not a list of numbers`);
      if (index < 0 || index >= expected || slots[index]) throw bad(`data[${position}].index ${index} is out of place`);
      slots[index] = normalizeVector(Float32Array.from(values as number[]));
    });
    const vectors = slots.filter((vector): vector is Float32Array => vector !== undefined);
    const wanted = this.dimensions ?? vectors[0]?.length;
    const wrong = vectors.find((vector) => vector.length !== wanted);
    if (wrong && wanted !== undefined)
      throw embeddingErrors.AALIS_EMBEDDING_DIMENSION_MISMATCH({
        endpoint: this.endpoint,
        model: this.config.model,
        got: wrong.length,
        expected: wanted,
      });
    this.learnedDimensions ??= wanted;
    return vectors;
  }

  close(): void {
    this.client.close();
  }
}
