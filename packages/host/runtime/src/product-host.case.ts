// The in-process product tests (startAalis with the default plugin set, each host in a workspace of its own) share one
// shape: a scripted model server for the whole file, reset after each test; cleanups run after each test, last
// first; and hosts whose logs are collected and whose stop runs once, by the test or by the cleanups.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type RunningAalis, type StartAalisOptions, startAalis } from './start-aalis.js';

export type Cleanup = () => Promise<unknown> | unknown;

export interface ProductFixture {
  /** The file's scripted model server (serves `test-model`). */
  readonly model: OpenAiTestServer;
  /** Run after each test, last first. */
  readonly cleanups: Cleanup[];
}

/** Registers the file's hooks: the model server before all tests, the cleanups and a model reset after each. */
export function useProductFixture(): ProductFixture {
  let model: OpenAiTestServer | undefined;
  const cleanups: Cleanup[] = [];
  beforeAll(async () => {
    model = await startOpenAiTestServer({ models: ['test-model'] });
  });
  afterAll(() => model?.close());
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    model?.reset();
  });
  return {
    get model() {
      if (!model) throw new Error('the model server starts in beforeAll: use it inside a test');
      return model;
    },
    cleanups,
  };
}

/** A temporary workspace holding `config` as aalis.config.yaml, removed by the cleanups. */
export function productWorkspace(fixture: ProductFixture, config: string, prefix = 'aalis-product-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  fixture.cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'aalis.config.yaml'), config);
  return dir;
}

export interface ProductHost {
  aalis: RunningAalis;
  dir: string;
  /** Stops the host; later calls (and the cleanups') do nothing. */
  stop(): Promise<void>;
  /** What the host wrote to its output and error output so far (the console log). */
  logs(): string;
}

/** Starts the product in `dir` (headless unless `mode` says otherwise), stopped by the cleanups. */
export async function startProduct(
  fixture: ProductFixture,
  dir: string,
  options: Omit<StartAalisOptions, 'cwd' | 'output' | 'errorOutput'> = {},
): Promise<ProductHost> {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const aalis = await startAalis({ env: {}, mode: 'none', ...options, cwd: dir, output, errorOutput: output });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await aalis.stop();
  };
  fixture.cleanups.push(stop);
  return { aalis, dir, stop, logs: () => text };
}

/**
 * A host sharing `database` (PostgreSQL) with the other hosts of a test of who holds a platform connection: leases
 * expire 1 s after the last heartbeat, no session server, no summaries. `platforms`: the YAML lines of the platform
 * sections under `plugins:`, each indented by two spaces; `settings`: top-level YAML lines (owners …).
 */
export function startLeaseHost(
  fixture: ProductFixture,
  {
    database,
    platforms,
    prefix,
    consoleLogLevel = 'off',
    apiKey,
    settings = '',
  }: {
    database: string;
    platforms: string;
    prefix: string;
    consoleLogLevel?: 'off' | 'info';
    apiKey?: string;
    settings?: string;
  },
): Promise<ProductHost> {
  const key = apiKey === undefined ? '' : `, apiKey: ${apiKey}`;
  const dir = productWorkspace(
    fixture,
    `locale: en
consoleLogLevel: ${consoleLogLevel}
${settings}llm: { baseUrl: ${fixture.model.url}, model: test-model${key} }
plugins:
  llm-openai: { fetchModels: false, retry: { maxRetries: 0 } }
  memory-summary: false
  storage: { leaseTtlMs: 1000 }
  session-server: false
${platforms}
`,
    prefix,
  );
  return startProduct(fixture, dir, { env: { AALIS_DATABASE_URL: database } });
}
