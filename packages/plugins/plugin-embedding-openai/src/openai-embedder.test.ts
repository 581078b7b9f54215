// The /embeddings provider against a local server speaking the real wire: batching, order, unit vectors, the
// configured dimension asked for and checked, failures as the contract's coded errors with no secret in them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { embedding, embeddingErrors } from '@aalis/api-embedding';
import type { AalisError } from '@aalis/core';
import { bootApp, hashedEmbedding, type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import embeddingOpenAiPlugin from './index.js';

const KEY = 'sk-embed-secret-1234';

describe('@aalis/plugin-embedding-openai', () => {
  let server: OpenAiTestServer;
  beforeAll(async () => {
    server = await startOpenAiTestServer({ apiKey: KEY, embeddingDimensions: 32 });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  async function boot(section: Record<string, unknown>) {
    const booted = await bootApp({
      plugins: [[embeddingOpenAiPlugin, { baseUrl: server.url, apiKey: KEY, retry: { maxRetries: 0 }, ...section }]],
    });
    const service = booted.app.services.selected(embedding)?.impl;
    if (!service) throw new Error('no embedding service');
    return { booted, service };
  }

  it('embeds in batches of batchSize, in order, as unit vectors, with the key as Bearer', async () => {
    const { booted, service } = await boot({ model: 'bge-m3', batchSize: 2 });
    const texts = ['the lake at sunset', 'a kayak trip', '西湖的荷花', 'marathon'];
    const vectors = await service.embed(texts);
    const calls = server.requests.filter((request) => request.path === '/v1/embeddings');
    expect(calls.map((call) => (call.body as { input: string[] }).input)).toEqual([texts.slice(0, 2), texts.slice(2)]);
    expect(calls[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(calls[0]?.body).toMatchObject({ model: 'bge-m3', encoding_format: 'float' });
    expect(vectors).toHaveLength(4);
    expect([...(vectors[2] ?? [])].map((value) => Number(value.toFixed(5)))).toEqual(
      hashedEmbedding('西湖的荷花', 32).map((value) => Number(value.toFixed(5))),
    );
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    expect(service.model).toBe('embedding-openai/bge-m3');
    expect(service.dimensions).toBe(32);
    await booted.stop();
  });

  it('asks for the configured dimensions and names them in the model id', async () => {
    const { booted, service } = await boot({ model: 'text-embedding-3-small', dimensions: 16 });
    expect(service.model).toBe('embedding-openai/text-embedding-3-small@16');
    const [vector] = await service.embed(['hello']);
    expect(vector).toHaveLength(16);
    expect(server.requests.at(-1)?.body).toMatchObject({ dimensions: 16 });
    await booted.stop();
  });

  it('refuses vectors of the wrong dimension with AALIS_EMBEDDING_DIMENSION_MISMATCH', async () => {
    const { booted, service } = await boot({ dimensions: 16 });
    server.failEmbeddings({ dimensions: 8 });
    const error = await service.embed(['hello']).catch((caught: unknown) => caught);
    expect(embeddingErrors.AALIS_EMBEDDING_DIMENSION_MISMATCH.is(error)).toBe(true);
    expect((error as AalisError).details).toMatchObject({ got: 8, expected: 16 });
    await booted.stop();
  });

  it('learns the dimension from the first answer and refuses a later change', async () => {
    const { booted, service } = await boot({});
    expect(service.dimensions).toBeUndefined();
    await service.embed(['one']);
    expect(service.dimensions).toBe(32);
    server.failEmbeddings({ dimensions: 24 });
    const error = await service.embed(['two']).catch((caught: unknown) => caught);
    expect(embeddingErrors.AALIS_EMBEDDING_DIMENSION_MISMATCH.is(error)).toBe(true);
    await booted.stop();
  });

  it('turns a failing endpoint into AALIS_EMBEDDING_FAILED without the key in its text', async () => {
    const { booted, service } = await boot({});
    server.failEmbeddings({ type: 'error', status: 500, message: `upstream down for ${KEY}` });
    const error = await service.embed(['hello']).catch((caught: unknown) => caught);
    expect(embeddingErrors.AALIS_EMBEDDING_FAILED.is(error)).toBe(true);
    const text = `${(error as AalisError).message} ${(error as AalisError).localized('zh-CN')}`;
    expect(text).not.toContain(KEY);
    expect(text).toContain('/v1/embeddings');
    await booted.stop();
  });

  it('turns a wrong key into AALIS_EMBEDDING_FAILED and an unusable answer into AALIS_EMBEDDING_BAD_RESPONSE', async () => {
    const wrong = await boot({ apiKey: 'sk-wrong-key-5678' });
    const refused = await wrong.service.embed(['hello']).catch((caught: unknown) => caught);
    expect(embeddingErrors.AALIS_EMBEDDING_FAILED.is(refused)).toBe(true);
    expect(String((refused as AalisError).message)).not.toContain('sk-wrong-key-5678');
    await wrong.booted.stop();
    // A server that answers 200 with something else than data[].embedding.
    const odd = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ index: 0, embedding: 'not numbers' }] }));
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    const { booted, service } = await boot({ baseUrl: `http://127.0.0.1:${(odd.address() as AddressInfo).port}/v1` });
    const unusable = await service.embed(['hello']).catch((caught: unknown) => caught);
    expect(embeddingErrors.AALIS_EMBEDDING_BAD_RESPONSE.is(unusable)).toBe(true);
    expect((unusable as AalisError).message).toContain('data[0].embedding is not a list of numbers');
    await booted.stop();
    await new Promise((resolve) => odd.close(resolve));
  });

  it('refuses a baseUrl that is not http(s) when it starts', async () => {
    const booted = await bootApp({ plugins: [[embeddingOpenAiPlugin, { baseUrl: 'ftp://example.test/v1' }]] });
    expect(booted.app.services.selected(embedding)).toBeUndefined();
    expect(JSON.stringify(booted.logs)).toContain('plugins.embedding-openai.baseUrl is not a usable URL');
    await booted.stop();
  });
});
