import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FixtureServer, serveFixture } from './serve-fixture.js';

describe('serveFixture', () => {
  let dir: string;
  let modelServer: OpenAiTestServer;
  let site: FixtureServer;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pling-serve-test-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>t</title>');
    await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1);');
    await writeFile(join(dir, 'assets', 'app.js.map'), '{}');
    await writeFile(join(dir, 'assets', 'app.css'), 'p{}');
    modelServer = await startOpenAiTestServer();
    site = await serveFixture({ dir, modelServerUrl: modelServer.url });
  });

  afterEach(async () => {
    await site.close();
    await modelServer.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the built files on 127.0.0.1 with their content types; / is index.html', async () => {
    expect(site.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const types = async (path: string) => (await fetch(new URL(path, site.url))).headers.get('content-type');
    expect(await types('/')).toBe('text/html; charset=utf-8');
    expect(await types('/assets/app.js')).toBe('text/javascript; charset=utf-8');
    expect(await types('/assets/app.js.map')).toBe('application/json; charset=utf-8');
    expect(await types('/assets/app.css')).toBe('text/css; charset=utf-8');
    expect(await (await fetch(new URL('/assets/app.js', site.url))).text()).toBe('console.log(1);');
    expect((await fetch(new URL('/missing.js', site.url))).status).toBe(404);
    expect((await fetch(new URL('/..%2F..%2Fetc%2Fpasswd', site.url))).status).toBe(403);
  });

  it('forwards /v1/* to the model server (whose URL already ends in /v1), method, body and status included', async () => {
    expect(modelServer.url).toMatch(/\/v1$/);
    modelServer.enqueue({ type: 'json', content: 'proxied' });
    const response = await fetch(new URL('/v1/chat/completions', site.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer page-key' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'proxied' } }] });
    expect(modelServer.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(modelServer.requests[0]!.headers.authorization).toBe('Bearer page-key');
    expect(modelServer.chatBodies()).toEqual([{ model: 'm', messages: [{ role: 'user', content: 'hi' }] }]);

    const models = await fetch(new URL('/v1/models', site.url));
    expect(await models.json()).toMatchObject({ data: [{ id: 'test-model' }] });
    const rejected = await fetch(new URL('/v1/chat/completions', site.url), { method: 'POST', body: '{}' });
    expect(rejected.status).toBe(400);
  });

  it('streams an answer through unbuffered and passes the browser giving up on to the model server', async () => {
    // The first chunk is sent, then the model server waits a minute: it can only arrive if nothing buffers it.
    modelServer.enqueue({
      type: 'stream',
      steps: [{ role: 'assistant' }, { text: 'first' }, { flush: true }, { delayMs: 60_000 }, { done: true }],
    });
    const abort = new AbortController();
    const response = await fetch(new URL('/v1/chat/completions', site.url), {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: abort.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    while (!received.includes('first')) received += (await reader.read()).value ?? '';
    expect(modelServer.requests[0]!.abortedByClient).toBe(false);

    abort.abort();
    await modelServer.requests[0]!.closed;
    expect(modelServer.requests[0]!.abortedByClient).toBe(true);
  });

  it('a reply cut mid-stream is cut for the page too, not ended as if complete', async () => {
    modelServer.enqueue({ type: 'stream', steps: [{ role: 'assistant' }, { text: 'partial' }, { cut: true }] });
    const response = await fetch(new URL('/v1/chat/completions', site.url), {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await expect(response.text()).rejects.toThrow();
  });
});
