// The conformance harness: a real host (startAalis in `serve` mode, the default plugin set) against the scripted
// model server, reached only through the protocol with @aalis/session-client over a real socket.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningAalis, startAalis } from '@aalis/runtime';
import { SessionClient, type SessionEvent, type Timeline, type WebSocketLike } from '@aalis/session-client';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { WebSocket } from 'ws';

export interface Host {
  aalis: RunningAalis;
  model: OpenAiTestServer;
  /** http://127.0.0.1:<port> */
  base: string;
  dir: string;
  stop(): Promise<void>;
}

export async function startHost({
  extraConfig = '',
  locale = 'en',
  providerConfig = '',
}: {
  extraConfig?: string;
  locale?: 'en' | 'zh-CN';
  /** YAML lines under plugins.llm-openai (indented four spaces), e.g. a `models:` list. */
  providerConfig?: string;
} = {}): Promise<Host> {
  const model = await startOpenAiTestServer({ models: ['test-model'] });
  const dir = mkdtempSync(join(tmpdir(), 'aalis-session-server-'));
  const page = join(dir, 'page');
  mkdirSync(page);
  writeFileSync(join(page, 'index.html'), '<!doctype html><title>test page</title><p>the page</p>');
  writeFileSync(
    join(dir, 'aalis.config.yaml'),
    `locale: ${locale}
consoleLogLevel: off
llm:
  baseUrl: ${model.url}
  model: test-model
webui:
  port: 0
plugins:
  llm-openai:
    fetchModels: false
    retry: { maxRetries: 0 }
${providerConfig}  session-server:
    webRoot: ${JSON.stringify(page)}
    maxMessageChars: 2000
    maxAttachmentBytes: 4096
    accounts: [{ userId: alice, displayName: Alice }]
${extraConfig}`,
  );
  const aalis = await startAalis({ cwd: dir, env: {}, mode: 'serve', banner: false });
  const base = aalis.webui?.url();
  if (!base) {
    await aalis.stop();
    throw new Error(
      `the session server did not start: ${JSON.stringify(aalis.app.states().filter((s) => s.state !== 'active'))}`,
    );
  }
  return {
    aalis,
    model,
    base,
    dir,
    async stop() {
      await aalis.stop();
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface HostPerFile {
  /** The file's host; its fields are there once it started (in tests and hooks). */
  readonly host: Host;
  /** The account's login cookie (with `login`, the default), got once the host started. */
  readonly cookie: string;
  /** Closes `client` after the test. */
  track<T extends SessionClient>(client: T): T;
  /** A connected client of the account (clientFor with the cookie), closed after the test. */
  connected(): Promise<SessionClient>;
}

/**
 * The set-up a conformance file shares, called at its top level: one host for the file (startHost), a login cookie
 * of the account unless `login: false`, and after each test the clients it made closed and the model's script reset.
 */
export function hostPerFile({
  login = true,
  startTimeoutMs,
  ...options
}: {
  extraConfig?: string;
  providerConfig?: string;
  login?: boolean;
  startTimeoutMs?: number;
} = {}): HostPerFile {
  // Filled in place once started, so the files can take `host` at their top level.
  const host = {} as Host;
  let cookie: string | undefined;
  const clients: SessionClient[] = [];
  beforeAll(async () => {
    Object.assign(host, await startHost(options));
    if (login) cookie = await loginCookie(host);
  }, startTimeoutMs);
  afterAll(() => host.stop?.());
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
    host.model?.reset();
  });
  const loggedIn = (): string => {
    if (cookie === undefined) throw new Error('no login cookie: hostPerFile({ login: false }), or not started yet');
    return cookie;
  };
  const track = <T extends SessionClient>(client: T): T => {
    clients.push(client);
    return client;
  };
  return {
    host,
    get cookie() {
      return loggedIn();
    },
    track,
    async connected() {
      const client = track(clientFor(host, loggedIn()));
      await client.connect();
      return client;
    },
  };
}

/** Exchanges a fresh link of the account for a login cookie. */
export async function loginCookie(host: Host, userId?: string): Promise<string> {
  const link = host.aalis.webui!.loginLink(userId)!;
  const token = new URL(link).searchParams.get('token')!;
  const response = await fetch(`${host.base}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: host.base },
    body: JSON.stringify({ token }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.get('set-cookie')!;
  return cookie.split(';')[0]!;
}

export function clientFor(host: Host, cookie: string | undefined, origin = host.base): SessionClient {
  return new SessionClient({
    baseUrl: host.base,
    headers: cookie ? { cookie } : {},
    reconnectDelayMs: { min: 20, max: 200 },
    requestTimeoutMs: 10_000,
    createSocket: (url) =>
      new WebSocket(url, { headers: { ...(cookie ? { cookie } : {}), origin } }) as unknown as WebSocketLike,
  });
}

/** Records what a subscription receives. */
export class Recorder {
  timelines: Timeline[] = [];
  events: { seq: number; event: SessionEvent }[] = [];
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  readonly handlers = {
    timeline: (timeline: Timeline) => {
      this.timelines.push(timeline);
      this.check();
    },
    event: (event: SessionEvent, seq: number) => {
      this.events.push({ seq, event });
      this.check();
    },
  };
  get latest(): Timeline | undefined {
    return this.timelines.at(-1);
  }
  types(): string[] {
    return this.events.map((entry) => entry.event.type);
  }
  of<T extends SessionEvent['type']>(type: T): Extract<SessionEvent, { type: T }>[] {
    return this.events
      .map((entry) => entry.event)
      .filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type);
  }
  until(test: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; events: ${this.types().join(', ')}`)), timeoutMs);
      this.waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
  private check() {
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.test()) return true;
      waiter.resolve();
      return false;
    });
  }
}

export async function waitFor(test: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await test())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
