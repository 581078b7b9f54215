// Issue #15 goal 4: a slot that is not enabled never imports its package. Observed from the outside: the real
// `aalis chat` (the start build, as `npm start` runs it) with a module hook that records every module Node loads, each
// loaded chunk mapped back to its sources through its source map.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SESSION_SERVER_PLUGIN } from '@aalis/plugin-session-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginSlots } from './plugin-set.js';
import { AALIS_BIN, childEnv, E2E_TIMEOUT_MS, temporaryWorkspace } from './spawn-aalis.case.js';

const packagesDir = fileURLToPath(new URL('../../', import.meta.url));
const repositoryRoot = resolve(packagesDir, '..');

/** What `chat` must never load without a section or variable asking for it: the packages and their SDKs. */
const LAZY = [
  'packages/plugin-mcp/',
  'node_modules/@modelcontextprotocol/',
  'node_modules/ajv/',
  'node_modules/zod/',
  'packages/plugin-otel/',
  'node_modules/@opentelemetry/',
  'packages/plugin-platform-onebot/',
  'packages/plugin-platform-telegram/',
  'node_modules/marked/',
  'packages/plugin-session-server/',
  'node_modules/hono/',
  'node_modules/@hono/',
  'node_modules/ws/',
  'packages/plugin-llm-openai/',
  'packages/plugin-llm-anthropic/',
  'node_modules/pg/',
];

/** What of them the runtime does load: the light modules with each lazy slot's schema and enabling rule. */
const SCHEMA_MODULES = [
  'packages/plugin-mcp/src/mcp-config.ts',
  'packages/plugin-otel/src/otel-config.ts',
  'packages/plugin-otel/src/otlp-environment.ts',
  'packages/plugin-platform-onebot/src/onebot-config.ts',
  'packages/plugin-platform-telegram/src/telegram-config.ts',
  'packages/plugin-session-server/src/server-config.ts',
  'packages/plugin-llm-openai/src/config-schema.ts',
  'packages/plugin-llm-openai/src/base-url.ts',
  'packages/plugin-llm-anthropic/src/config-schema.ts',
];

let workspace: ReturnType<typeof temporaryWorkspace>;
let register: string;

beforeAll(() => {
  workspace = temporaryWorkspace('locale: en\n');
  // Runs on Node's module-hooks thread: appends each module's URL to the file the child's environment names.
  const hooks = join(workspace.dir, 'record-loads.mjs');
  writeFileSync(
    hooks,
    "import { appendFileSync } from 'node:fs';\n" +
      'export async function load(url, context, next) {\n' +
      "  appendFileSync(process.env.LOADED_MODULES_FILE, url + '\\n');\n" +
      '  return next(url, context);\n' +
      '}\n',
  );
  register = join(workspace.dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
});
afterAll(() => workspace.remove());

/** Runs `aalis chat` with one line; returns the repository paths of every source it loaded (through the build's maps). */
async function loadedSources(name: string, env: Record<string, string> = {}) {
  const file = join(workspace.dir, `${name}.loaded`);
  writeFileSync(file, '');
  const child = spawn(process.execPath, ['--import', register, AALIS_BIN, 'chat', '--session', name], {
    cwd: workspace.dir,
    env: childEnv({ ...env, LOADED_MODULES_FILE: file }),
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdin.end('hello\n');
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const sources = new Set<string>();
  const chunks: string[] = [];
  for (const url of readFileSync(file, 'utf8').split('\n')) {
    if (!url.startsWith('file:')) continue;
    const path = fileURLToPath(url);
    if (path.includes('/dist/bundle/')) {
      chunks.push(path);
      const map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as { sources: string[] };
      for (const source of map.sources) sources.add(resolve(dirname(path), source));
    } else {
      sources.add(path);
    }
  }
  const relative = [...sources].map((path) => path.slice(repositoryRoot.length + 1));
  return { code, stdout, stderr, chunks, sources: relative };
}

/** The sources under these prefixes, besides the schema modules. */
const matching = (sources: string[], prefixes: string[]) =>
  sources.filter((source) => prefixes.some((prefix) => source.startsWith(prefix)) && !SCHEMA_MODULES.includes(source));

describe('#15.4 lazy plugins', () => {
  it('#15.4 a lazy slot keeps the very schema and name its definition has', async () => {
    const slots = pluginSlots();
    const lazy = ['llm-openai', 'llm-anthropic', 'otel', 'platform-onebot', 'platform-telegram', 'mcp'];
    for (const alias of lazy) expect(slots.find((slot) => slot.alias === alias)?.load, alias).toBeTypeOf('function');
    for (const slot of slots) {
      if (!slot.load) continue;
      const definition = await slot.load();
      expect(definition.name, slot.alias).toBe(slot.name);
      expect(definition.config, slot.alias).toBe(slot.schema);
    }
    expect(slots.find((slot) => slot.alias === 'session-server')?.name).toBe(SESSION_SERVER_PLUGIN);
  });

  it(
    '#15.4 aalis chat without MCP, OpenTelemetry, platform or model-server settings never loads those packages',
    async () => {
      const run = await loadedSources('plain');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('hello');
      // The observation works: the start build ran, split into chunks, and the engine's own sources were loaded.
      expect(run.chunks.length).toBeGreaterThan(1);
      expect(run.sources).toContain('packages/plugin-agent/src/index.ts');
      expect(run.sources).toContain('packages/plugin-llm-offline/src/index.ts');
      expect(matching(run.sources, LAZY)).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    '#15.4 an OTEL_* variable loads the OpenTelemetry plugin, and its SDK only when it exports',
    async () => {
      // An exporter the plugin refuses: it loads, reports the problem, and starts no SDK.
      const run = await loadedSources('otel', { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('AALIS_OTEL_UNSUPPORTED_PROTOCOL');
      expect(run.sources).toContain('packages/plugin-otel/src/index.ts');
      expect(matching(run.sources, ['node_modules/@opentelemetry/sdk-trace-base/', 'packages/plugin-mcp/'])).toEqual(
        [],
      );
    },
    E2E_TIMEOUT_MS,
  );
});
