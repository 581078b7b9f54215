import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAiTestServer, startOpenAiTestServer } from './openai-test-server.js';
import { errorReply, textReply, toolCallReply } from './scripted-reply.js';

let server: OpenAiTestServer;

beforeAll(async () => {
  server = await startOpenAiTestServer({ models: ['m1', 'm2'], apiKey: 'k' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const post = (body: unknown, headers: Record<string, string> = { authorization: 'Bearer k' }) =>
  fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const chat = (extra: Record<string, unknown> = {}) =>
  post({ model: 'm1', messages: [{ role: 'user', content: 'hi' }], stream: true, ...extra });

/** The data lines of an SSE body, parsed (written independently of @aalis/wire-openai). */
const dataOf = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice(6))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));

describe('startOpenAiTestServer', () => {
  it('listens on 127.0.0.1 and lists its models', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await fetch(`${server.url}/models`, { headers: { authorization: 'Bearer k' } });
    expect(await response.json()).toEqual({
      object: 'list',
      data: [
        { id: 'm1', object: 'model', owned_by: 'test' },
        { id: 'm2', object: 'model', owned_by: 'test' },
      ],
    });
    server.failModels(errorReply(503, 'down'));
    expect((await fetch(`${server.url}/models`, { headers: { authorization: 'Bearer k' } })).status).toBe(503);
  });

  it('streams a scripted reply as SSE chunks, records the request, and says ok when nothing is queued', async () => {
    server.enqueue(
      textReply('hello', { chunkSize: 2, usage: { promptTokens: 5, completionTokens: 2, cachedTokens: 1 } }),
    );
    const response = await chat();
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const data = dataOf(await response.text());
    expect(data[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(data.slice(1, 4).map((chunk) => chunk.choices[0].delta.content)).toEqual(['he', 'll', 'o']);
    expect(data[4].choices[0].finish_reason).toBe('stop');
    expect(data[5].usage).toEqual({
      prompt_tokens: 5,
      completion_tokens: 2,
      total_tokens: 7,
      prompt_tokens_details: { cached_tokens: 1 },
    });
    expect(data.at(-1)).toBe('[DONE]');
    expect(server.chatBodies()[0]).toMatchObject({ model: 'm1', stream: true });
    expect(dataOf(await (await chat()).text())[1].choices[0].delta.content).toBe('ok');
  });

  it('splits tool-call arguments across chunks', async () => {
    server.enqueue(toolCallReply([{ id: 'c1', name: 'f', arguments: { a: 1 } }], { argumentPieces: 3 }));
    const data = dataOf(await (await chat()).text());
    const calls = data.slice(1).filter((chunk) => chunk !== '[DONE]' && chunk.choices[0]?.delta.tool_calls);
    expect(calls.map((chunk) => chunk.choices[0].delta.tool_calls[0].function.arguments)).toEqual([
      '',
      '{"a',
      '":1',
      '}',
    ]);
    expect(calls[0].choices[0].delta.tool_calls[0]).toMatchObject({ index: 0, id: 'c1', function: { name: 'f' } });
  });

  it('answers JSON, errors with headers, raw lines and stream errors as scripted', async () => {
    server.enqueue(
      { type: 'json', content: 'whole', usage: { promptTokens: 1, completionTokens: 1 } },
      errorReply(429, 'slow', { headers: { 'retry-after': '3' } }),
      { type: 'stream', steps: [{ raw: 'garbage\n' }, { streamError: { message: 'boom' } }] },
    );
    const json = (await (await chat({ stream: false })).json()) as { choices: Array<{ message: unknown }> };
    expect(json.choices[0]!.message).toEqual({ role: 'assistant', content: 'whole' });
    const limited = await chat();
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '3']);
    expect(await limited.json()).toEqual({ error: { message: 'slow', type: 'api_error', param: null, code: null } });
    const text = await (await chat()).text();
    expect(text.startsWith('garbage\n')).toBe(true);
    expect(text).toContain('"message":"boom"');
  });

  it('rejects what real providers reject: bad key, unknown model, invalid message sequences', async () => {
    const unauthorised = await post({ model: 'm1', messages: [{ role: 'user', content: 'x' }] }, {});
    expect(unauthorised.status).toBe(401);
    const unknown = await chat({ model: 'm9' });
    expect([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      'model_not_found',
    ]);
    server.enqueue(textReply('kept for the next valid call'));
    const invalid = await chat({
      messages: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'user', content: 'no answer to a' },
      ],
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { message: string } }).error.message).toContain('tool_call_ids');
    expect(server.requests.at(-1)!.rejected).toContain('tool_call_ids');
    expect(server.pending()).toBe(1);
    const notFound = await fetch(`${server.url.replace('/v1', '')}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
    });
    expect([notFound.status, await notFound.text()]).toEqual([404, '<pre>Cannot POST /chat/completions</pre>']);
  });

  it('cuts a stream mid-way and notices when the client goes away', async () => {
    server.enqueue({ type: 'stream', steps: [{ text: 'part' }, { cut: true }] });
    const response = await chat();
    await expect(response.text()).rejects.toThrow();
    server.enqueue({ type: 'stream', steps: [{ text: 'a' }, { delayMs: 60_000 }] });
    const pending = await chat();
    await pending.body?.cancel();
    await server.requests.at(-1)!.closed;
    expect(server.requests.at(-1)!.abortedByClient).toBe(true);
  });

  it('answers from `respond` when no queued reply is left, after the queue', async () => {
    const scripted = await startOpenAiTestServer({
      respond: (body) => textReply(`echo ${(body.messages as Array<{ content: string }>).at(-1)!.content}`),
    });
    try {
      scripted.enqueue(textReply('queued'));
      const ask = async (content: string) => {
        const response = await fetch(`${scripted.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }], stream: true }),
        });
        return dataOf(await response.text())
          .slice(1, -3)
          .map((chunk) => chunk.choices[0].delta.content)
          .join('');
      };
      expect([await ask('one'), await ask('two'), await ask('three')]).toEqual(['queued', 'echo two', 'echo three']);
    } finally {
      await scripted.close();
    }
  });
});
