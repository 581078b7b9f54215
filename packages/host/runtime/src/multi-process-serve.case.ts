// Helpers of the multi-process scale test and benchmark: real `aalis serve` processes on one database, each logged into
// over its session protocol (the login link its banner prints, a real WebSocket), so a test can send a tagged message
// into any session through any process.
import { SessionClient, type WebSocketLike } from '@aalis/session-client';
import { WebSocket } from 'ws';
import { type AalisProcess, spawnAalis, temporaryWorkspace, waitFor } from './spawn-aalis.case.js';

const LINK = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9._%-]+)/;

export interface ServeProcess {
  name: string;
  process: AalisProcess;
  /** http://127.0.0.1:<port> of its session server. */
  base: string;
  client: SessionClient;
  alive(): boolean;
  /** SIGKILL (no drain, no shutdown hooks): a crash. */
  kill(): void;
  /** SIGTERM and wait for the exit (closes the client first). */
  stop(): Promise<number | string>;
  removeWorkspace(): void;
}

/**
 * A configuration for a serve process against the scripted model server. `apiKey` tells the model server's request
 * log which process sent a request (the Authorization header); the test server accepts any key.
 */
export function serveConfig(options: { modelUrl: string; apiKey: string; leaseTtlMs: number }): string {
  return `locale: en
consoleLogLevel: off
llm:
  baseUrl: ${options.modelUrl}
  model: test-model
  apiKey: ${options.apiKey}
plugins:
  llm-openai:
    fetchModels: false
    retry: { maxRetries: 0 }
  storage:
    leaseTtlMs: ${options.leaseTtlMs}
  memory-summary: false
`;
}

/** Starts `aalis serve` in its own workspace (as on its own host: only the database is shared) and logs in. */
export async function startServe(options: {
  name: string;
  config: string;
  env: Record<string, string>;
  startTimeoutMs?: number;
}): Promise<ServeProcess> {
  const workspace = temporaryWorkspace(options.config);
  const process = spawnAalis({
    cwd: workspace.dir,
    args: ['serve'],
    env: { AALIS_WEBUI_PORT: '0', ...options.env },
  });
  const alive = () => process.child.exitCode === null && process.child.signalCode === null;
  try {
    const match = await waitFor(() => (alive() ? (LINK.exec(process.stdout()) ?? undefined) : new Error('exited')), {
      timeoutMs: options.startTimeoutMs ?? 45_000,
      what: () => `the login link of ${options.name} (stdout ${process.stdout()}, stderr ${process.stderr()})`,
    });
    if (match instanceof Error) throw new Error(`${options.name} exited at start: ${process.stderr()}`);
    const base = `http://127.0.0.1:${match[1]}`;
    const response = await fetch(`${base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ token: decodeURIComponent(match[2]!) }),
    });
    if (!response.ok) throw new Error(`login to ${options.name} failed: ${response.status} ${await response.text()}`);
    const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
    const client = new SessionClient({
      baseUrl: base,
      headers: { cookie },
      reconnectDelayMs: { min: 50, max: 500 },
      requestTimeoutMs: 30_000,
      createSocket: (url) => new WebSocket(url, { headers: { cookie, origin: base } }) as unknown as WebSocketLike,
    });
    await client.connect();
    return {
      name: options.name,
      process,
      base,
      client,
      alive,
      kill: () => {
        client.close();
        process.child.kill('SIGKILL');
      },
      stop: async () => {
        client.close();
        if (alive()) process.child.kill('SIGTERM');
        return process.exited;
      },
      removeWorkspace: () => workspace.remove(),
    };
  } catch (error) {
    process.child.kill('SIGKILL');
    workspace.remove();
    throw error;
  }
}
