// End to end: credentials written into the endpoint URL (`http://user:password@host/v1`) never show — not on the
// terminal, not in the log, not in the database (the turn's error, lastTurn, turn records) — even when the server
// echoes the Basic header it received.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, runAalis, temporaryWorkspace } from './spawn-aalis.case.js';

const USER = 'alice';
const PASSWORD = 'pa55-w0rd-xyz';
const TOKEN = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

let server: OpenAiTestServer;
beforeAll(async () => {
  // The server wants a Bearer key, and its 401 message quotes the Authorization header it got.
  server = await startOpenAiTestServer({ models: ['test-model'], apiKey: 'the-server-key' });
});
afterAll(() => server.close());
const workspaces: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const workspace of workspaces.splice(0)) workspace.remove();
  server.reset();
});

const CONFIG = `locale: en
logLevel: debug
llm:
  model: test-model
plugins:
  llm-openai:
    fetchModels: false
    retry: { maxRetries: 0 }
`;

/** Every file under `dir` as text (the SQLite database and its WAL store strings as UTF-8). */
function allFiles(dir: string): string {
  let text = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    text += statSync(path).isDirectory() ? allFiles(path) : readFileSync(path).toString('latin1');
  }
  return text;
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('credentials in llm.baseUrl', () => {
  it(
    'are never printed, logged or stored; a server echoing the Basic header gets it redacted',
    async () => {
      const unreachable = `http://${USER}:${PASSWORD}@127.0.0.1:${await closedPort()}/v1`;
      const echoing = server.url.replace('http://', `http://${USER}:${PASSWORD}@`);
      for (const baseUrl of [echoing, unreachable]) {
        const workspace = temporaryWorkspace(CONFIG);
        workspaces.push(workspace);
        const run = await runAalis({
          cwd: workspace.dir,
          args: ['chat'],
          input: 'hello\n/session\n',
          env: { AALIS_LLM_BASE_URL: baseUrl, AALIS_LOCALE: 'en' },
        });
        expect(run.code, baseUrl).toBe(0);
        expect(run.stdout, baseUrl).toMatch(/\[Error\]/); // the turn failed and said so
        if (baseUrl === echoing) expect(run.stdout).toContain('Incorrect API key provided: Basic ***');
        const everything = `${run.stdout}\n${run.stderr}\n${allFiles(join(workspace.dir, 'data'))}`;
        expect(everything).toContain('hello'); // the history was stored
        for (const secret of [PASSWORD, TOKEN, encodeURIComponent(PASSWORD)]) {
          expect(everything, `${baseUrl}: ${secret}`).not.toContain(secret);
        }
        expect(everything).not.toContain(`${USER}:`);
      }
      // The credentials were sent, as Basic authentication, to the server they were written for.
      expect(server.requests[0]!.headers.authorization).toBe(`Basic ${TOKEN}`);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'a key given in plugins.llm-openai.headers is never printed, logged or stored either (a server echoing it)',
    async () => {
      const headerKey = 'hdr-key-5f3a9c1e7b';
      const workspace =
        temporaryWorkspace(`${CONFIG}    headers: { Authorization: "Bearer ${headerKey}", x-api-key: ${headerKey}-x }
`);
      workspaces.push(workspace);
      const run = await runAalis({
        cwd: workspace.dir,
        args: ['chat'],
        input: 'hello\n',
        env: { AALIS_LLM_BASE_URL: server.url, AALIS_LOCALE: 'en' },
      });
      expect(run.code).toBe(0);
      // The server's 401 quotes the Authorization header it got.
      expect(run.stdout).toContain('Incorrect API key provided: ***.');
      const everything = `${run.stdout}\n${run.stderr}\n${allFiles(join(workspace.dir, 'data'))}`;
      expect(everything).toContain('hello');
      expect(everything).not.toContain(headerKey);
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${headerKey}`);
      expect(server.requests[0]!.headers['x-api-key']).toBe(`${headerKey}-x`);
    },
    E2E_TIMEOUT_MS,
  );
});
