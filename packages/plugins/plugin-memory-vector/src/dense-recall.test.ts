// Dense recall through the real agent and a local /embeddings server (hashed bag-of-words vectors): vectors made in
// the background, once per text; fused with full text; an endpoint that fails or answers the wrong dimension leaves
// a coded error in the log and the status while full-text recall goes on and nothing is lost; forgetting reaches
// the vectors; a change of model waits for `reindex`, which reports its progress.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryVectorService, memoryVector } from '@aalis/api-memory-vector';
import { sessionManager } from '@aalis/api-session-manager';
import { type Harness, startHarness } from '@aalis/plugin-agent/testing';
import embeddingOpenAiPlugin from '@aalis/plugin-embedding-openai';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import memoryVectorPlugin from './index.js';

const GROUP = 'qq:group:700';
let server: OpenAiTestServer;
let dataDir: string;
let harness: Harness;
let memory: MemoryVectorService;

async function start(model: string): Promise<void> {
  harness = await startHarness({
    server,
    storage: { dataDir },
    extra: [
      [embeddingOpenAiPlugin, { baseUrl: server.url, model, batchSize: 8, retry: { maxRetries: 0 } }],
      memoryVectorPlugin,
    ],
  });
  memory = harness.booted.app.services.selected(memoryVector)!.impl;
  const sessions = harness.booted.app.services.selected(sessionManager)!.impl;
  await sessions.ensure({ id: GROUP, kind: 'room', platform: 'qq', venue: '700', originChat: { multiParty: true } });
}

function say(content: string, userId = '111') {
  return harness.agent.handleMessage({
    sessionId: GROUP,
    platform: 'qq',
    venue: '700',
    sender: { userId, displayName: userId === '111' ? 'Ann' : 'Bob' },
    content,
    triggerType: 'ambient',
  });
}

async function ask(content: string): Promise<string> {
  await memory.settled();
  await harness.agent.handleMessage({
    sessionId: 'qq:group:701',
    platform: 'qq',
    venue: '701',
    sender: { userId: '111', displayName: 'Ann' },
    content,
    triggerType: 'direct',
  });
  const block = harness
    .requests()
    .at(-1)
    ?.messages.find((message) => String(message.content).startsWith('[长期记忆]'));
  return String(block?.content ?? '');
}

beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['test-model'], embeddingDimensions: 48 });
  dataDir = mkdtempSync(join(tmpdir(), 'aalis-dense-'));
  await start('hash-a');
  const sessions = harness.booted.app.services.selected(sessionManager)!.impl;
  await sessions.ensure({
    id: 'qq:group:701',
    kind: 'room',
    platform: 'qq',
    venue: '701',
    originChat: { multiParty: true },
  });
  await say('I started photography classes at the community college');
  await say('the weather is grey today', '222');
  await say('same words again');
  await say('same words again');
  await memory.settled();
});

afterAll(async () => {
  await harness?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('dense recall', () => {
  it('embeds every indexed message once, in the background, a repeated text once', async () => {
    const status = await memory.status();
    expect(status.vectors).toMatchObject({ state: 'ready', model: 'embedding-openai/hash-a', dimensions: 48 });
    expect(status.vectors.embedded).toBe(status.indexed);
    expect(status.indexed).toBeGreaterThanOrEqual(4);
    const embedded = server.embeddedTexts();
    expect(embedded.filter((text) => text.endsWith('same words again'))).toHaveLength(1);
  });

  it('finds by meaning what full text misses, fused with full-text hits, and says why', async () => {
    // "photographers" and "photography" share no full-text term; the vectors (first five letters) meet.
    expect(await memory.search({ text: 'photographers', sessionId: GROUP })).toEqual([]);
    const block = await ask('any photographers here?');
    expect(block).toContain('I started photography classes');
    const [record] = await memory.recentRecalls({ sessionIds: ['qq:group:701'] });
    const item = record?.items.find((candidate) => candidate.text.includes('photography classes'));
    expect(item?.matched).toContain('vector');
  });
});

describe('an endpoint that fails or answers the wrong dimension', () => {
  it('keeps indexing and recalling by full text, logs a coded error, and shows it in the status', async () => {
    server.failEmbeddings({ type: 'error', status: 500, message: 'embedding backend down' });
    await say('the lighthouse keeper retires in autumn');
    await memory.settled();
    const status = await memory.status();
    expect(status.vectors.state).toBe('failing');
    expect(status.vectors.error?.code).toBe('AALIS_MEMORY_VECTOR_EMBEDDING_FAILED');
    expect(status.vectors.embedded).toBeLessThan(status.indexed);
    const lighthouse = await memory.search({ text: 'lighthouse keeper', sessionId: GROUP });
    expect(lighthouse.map((hit) => hit.text)).toEqual(['the lighthouse keeper retires in autumn']);
    const warning = harness.booted.logs.find(
      (record) => record.fields?.code === 'AALIS_MEMORY_VECTOR_EMBEDDING_FAILED',
    );
    expect(warning?.fields).toMatchObject({ cause: 'AALIS_EMBEDDING_FAILED' });
    expect(await ask('when does the lighthouse keeper retire?')).toContain('lighthouse keeper retires in autumn');
  });

  it('refuses vectors of another dimension without losing the message', async () => {
    server.failEmbeddings({ dimensions: 8 });
    await memory.reindex().catch(() => undefined);
    await say('the orchard has forty pear trees');
    await memory.settled();
    const found = await memory.search({ text: 'pear orchard', sessionId: GROUP });
    expect(found.map((hit) => hit.text)).toEqual(['the orchard has forty pear trees']);
    expect(
      harness.booted.logs.some((record) => String(record.fields?.cause) === 'AALIS_EMBEDDING_DIMENSION_MISMATCH'),
    ).toBe(true);
    expect(await ask('how many pear trees in the orchard?')).toContain('forty pear trees');
  });

  it('catches up once the endpoint answers again (reindex), nothing lost', async () => {
    server.failEmbeddings(undefined);
    const progress: number[] = [];
    const result = await memory.reindex({ onProgress: ({ embedded }) => progress.push(embedded) });
    const status = await memory.status();
    expect(status.vectors.state).toBe('ready');
    expect(result).toMatchObject({ model: 'embedding-openai/hash-a', dimensions: 48, total: status.indexed });
    expect(result.embedded).toBe(status.indexed);
    expect(progress.at(-1)).toBe(status.indexed);
  });
});

describe('forgetting', () => {
  it('removes a message from the vector index as well as from full text', async () => {
    const before = (await memory.status()).vectors.embedded;
    const [hit] = await memory.search({ text: 'photography classes', sessionId: GROUP });
    expect(await memory.forget([hit!.messageId])).toBe(1);
    expect((await memory.status()).vectors.embedded).toBe(before - 1);
    expect(await ask('any photographers here at all?')).not.toContain('photography classes');
    expect(
      (await memory.recentRecalls()).flatMap((record) => record.items).map((item) => item.messageId),
    ).not.toContain(hit!.messageId);
  });
});

describe('a change of embedding model', () => {
  it('turns dense recall off until aalis memory reindex rebuilds the vectors with the new model', async () => {
    await harness.close();
    await start('hash-b');
    await memory.settled();
    const stale = await memory.status();
    expect(stale.vectors).toMatchObject({ state: 'stale', model: 'embedding-openai/hash-b' });
    expect(stale.vectors.error?.code).toBe('AALIS_MEMORY_VECTOR_MODEL_CHANGED');
    // Full text still answers.
    expect(await ask('how many pear trees in the orchard?')).toContain('forty pear trees');
    await memory.settled();
    const indexed = (await memory.status()).indexed;
    const seen: Array<{ embedded: number; total: number }> = [];
    await memory.reindex({ onProgress: (progress) => seen.push(progress) });
    expect(seen[0]).toEqual({ embedded: 0, total: indexed });
    expect(seen.at(-1)).toEqual({ embedded: indexed, total: indexed });
    expect((await memory.status()).vectors).toMatchObject({ state: 'ready', model: 'embedding-openai/hash-b' });
  });
});
