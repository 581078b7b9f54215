// `aalis memory reindex` through the command's entry (main): a deployment whose messages were embedded with one model
// gets its vectors rebuilt with the newly configured one, progress on standard error and the outcome on standard
// output; without an embedding endpoint it says what to configure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';

let server: OpenAiTestServer;
let dir: string;

function configure(embedding: string): void {
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: en
llm:
  baseUrl: ${server.url}
  model: test-model
plugins:
  llm-openai:
    fetchModels: false
    retry: { maxRetries: 0 }
${embedding}`,
  );
}

async function run(argv: string[], input = '') {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const stdin = new PassThrough();
  stdin.end(input);
  const code = await main(argv, {
    stdin,
    stdout,
    stderr,
    env: { AALIS_LOCALE: 'en' },
    cwd: dir,
    onSignal: () => () => {},
    exit: (status) => {
      throw new Error(`exit ${status}`);
    },
  });
  return { code, stdout: out, stderr: err };
}

beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['test-model'], embeddingDimensions: 24 });
  dir = mkdtempSync(join(tmpdir(), 'aalis-reindex-'));
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('aalis memory reindex', () => {
  it('rebuilds the vectors with the newly configured model, showing progress', async () => {
    configure(`  embedding-openai:\n    baseUrl: ${server.url}\n    model: hash-a\n`);
    const chat = await run(['chat'], 'the canoe is blue\nthe tent is green\n');
    expect(chat.code).toBe(0);
    configure(`  embedding-openai:\n    baseUrl: ${server.url}\n    model: hash-b\n    dimensions: 16\n`);
    const before = server.embeddedTexts().length;
    const reindex = await run(['memory', 'reindex']);
    expect(reindex.stderr).toContain(
      'Rebuilding long-term memory’s vectors with the embedding model embedding-openai/hash-b@16',
    );
    expect(reindex.code).toBe(0);
    const done = /Done: (\d+) messages have vectors of embedding-openai\/hash-b@16 \(16 dimensions\)/.exec(
      reindex.stdout,
    );
    // Two inputs and two replies, every one embedded again.
    expect(Number(done?.[1])).toBe(4);
    expect(reindex.stderr).toMatch(/Re-indexing vectors: 4\/4 \(100 %\)/);
    const embeddedNow = server.embeddedTexts().slice(before);
    expect(embeddedNow.some((text) => text.includes('the canoe is blue'))).toBe(true);
    const asked = server.requests.filter((request) => request.path === '/v1/embeddings').at(-1)?.body;
    expect(asked).toMatchObject({ model: 'hash-b', dimensions: 16 });
  });

  it('says what to configure when there is no embedding endpoint, and why it stopped when the endpoint fails', async () => {
    configure('');
    const none = await run(['memory', 'reindex']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('configure plugins.embedding-openai (baseUrl, model) first');

    configure(`  embedding-openai:\n    baseUrl: ${server.url}\n    model: hash-c\n    retry: { maxRetries: 0 }\n`);
    server.failEmbeddings({ type: 'error', status: 503, message: 'overloaded' });
    const failing = await run(['memory', 'reindex']);
    server.failEmbeddings(undefined);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('Re-indexing stopped');
    expect(failing.stderr).toContain('/v1/embeddings');
  });

  it('refuses other memory subcommands', async () => {
    const wrong = await run(['memory', 'rebuild']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Unknown argument: rebuild');
  });
});
