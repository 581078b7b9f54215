// A slot that is not enabled never imports its package. Observed from the outside: the real `aalis chat` (the start
// build, as `npm start` runs it) under V8's own coverage (NODE_V8_COVERAGE), each function that ran mapped back to its
// source through the build's source map. A module of the build runs its body only when imported (esbuild wraps what is
// reached by a dynamic import in an initialiser), so a package none of whose functions ran was never imported.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSION_SERVER_PLUGIN } from '@aalis/plugin-session-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the bin folder, without declarations
import { WRAPPER_HEAD } from '../bin/fresh-bundle.mjs';
import { pluginSlots } from './plugin-set.js';
import { AALIS_BIN, childEnv, E2E_TIMEOUT_MS, temporaryWorkspace } from './spawn-aalis.case.js';

const repositoryRoot = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));

/** What `chat` must never load without a section or variable asking for it: the packages and their SDKs. */
const LAZY = [
  'packages/plugins/plugin-mcp/',
  'node_modules/@modelcontextprotocol/',
  'node_modules/ajv/',
  'node_modules/zod/',
  'packages/plugins/plugin-otel/',
  'node_modules/@opentelemetry/',
  'packages/plugins/plugin-platform-onebot/',
  'packages/plugins/plugin-platform-telegram/',
  'node_modules/marked/',
  'packages/plugins/plugin-session-server/',
  'node_modules/hono/',
  'node_modules/@hono/',
  'node_modules/ws/',
  'packages/plugins/plugin-llm-openai/',
  'packages/plugins/plugin-llm-anthropic/',
  'packages/shared/http-transport/',
  'node_modules/silk-wasm/',
  'node_modules/pg/',
];

/** What of them the runtime does load: the light modules with each lazy slot's schema and enabling rule. */
const SCHEMA_MODULES = [
  'packages/plugins/plugin-mcp/src/mcp-config.ts',
  'packages/plugins/plugin-otel/src/otel-config.ts',
  'packages/plugins/plugin-otel/src/otlp-environment.ts',
  'packages/plugins/plugin-platform-onebot/src/onebot-config.ts',
  'packages/plugins/plugin-platform-telegram/src/telegram-config.ts',
  'packages/plugins/plugin-session-server/src/server-config.ts',
  'packages/plugins/plugin-llm-openai/src/config-schema.ts',
  'packages/shared/http-transport/src/config-schema.ts',
  'packages/shared/http-transport/src/base-url.ts',
  // The proxy rule the configuration check applies to the model providers (endpoint-checks.ts), and its error.
  'packages/shared/http-transport/src/proxy-settings.ts',
  'packages/shared/http-transport/src/no-proxy.ts',
  'packages/shared/http-transport/src/transport-errors.ts',
  'packages/plugins/plugin-llm-anthropic/src/config-schema.ts',
];

let workspace: ReturnType<typeof temporaryWorkspace>;
beforeAll(() => {
  workspace = temporaryWorkspace('locale: en\n');
});
afterAll(() => {
  workspace.remove();
  // The fork runs other files after this one (isolate: false): the maps are not kept for them.
  maps.clear();
});

interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[];
}

/**
 * The line starts and source map of a build's file, read once for the file's runs (the command's build and its map
 * are some 13 and 37 MB: parsing the map takes about a second of CPU).
 */
const maps = new Map<string, { lineStarts: number[]; map: SourceMap }>();
function mapOf(path: string): { lineStarts: number[]; map: SourceMap } {
  let known = maps.get(path);
  if (!known) {
    const text = readFileSync(path, 'latin1');
    const lineStarts = [0];
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
      lineStarts.push(index + 1);
    }
    known = { lineStarts, map: new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))) };
    maps.set(path, known);
  }
  return known;
}

/** Runs `aalis chat` with one line; returns the repository paths of the sources any of whose functions ran. */
async function executedSources(name: string, env: Record<string, string> = {}) {
  const coverage = join(workspace.dir, `${name}.coverage`);
  const child = spawn(process.execPath, [AALIS_BIN, 'chat', '--session', name], {
    cwd: workspace.dir,
    env: childEnv({ ...env, NODE_V8_COVERAGE: coverage }),
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
  let builds = 0;
  for (const file of readdirSync(coverage)) {
    const { result } = JSON.parse(readFileSync(join(coverage, file), 'utf8')) as { result: ScriptCoverage[] };
    for (const script of result) {
      const path = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
      if (!path.includes('/dist/bundle/')) continue;
      // The command's build; the WebUI package's entry beside it (imported at start to see whether the page is
      // built) is read too, for what it runs.
      if (path.endsWith('/cli.cjs')) builds++;
      const { lineStarts, map } = mapOf(path);
      // Offsets count from the start of the compiled text: for the CommonJS build the loader's wrapper head comes
      // first, on line 1; an ES module is not wrapped.
      const shift = path.endsWith('.cjs') ? (WRAPPER_HEAD as string).length : 0;
      for (const { functionName, ranges } of script.functions) {
        const [whole] = ranges;
        if (!whole || whole.count === 0) continue;
        // esbuild names the initialiser of each module it runs on first import after the module's path.
        if (/\.[cm]?[jt]s$/.test(functionName)) sources.add(resolve(repositoryRoot, functionName));
        const offset = whole.startOffset - shift;
        let line = 0;
        for (let low = 0, high = lineStarts.length - 1; low <= high; ) {
          const middle = (low + high) >> 1;
          if (lineStarts[middle]! <= offset) {
            line = middle;
            low = middle + 1;
          } else high = middle - 1;
        }
        const entry = map.findEntry(line, offset - lineStarts[line]!) as { originalSource?: string };
        if (entry.originalSource) sources.add(resolve(dirname(path), entry.originalSource));
      }
    }
  }
  const relative = [...sources]
    .map((path) => (path.startsWith('file:') ? fileURLToPath(path) : path))
    .map((path) => path.slice(repositoryRoot.length + 1));
  return { code, stdout, stderr, builds, sources: relative };
}

/** The sources under these prefixes, besides the schema modules. */
const matching = (sources: string[], prefixes: string[]) =>
  sources.filter((source) => prefixes.some((prefix) => source.startsWith(prefix)) && !SCHEMA_MODULES.includes(source));

describe('lazy plugins', () => {
  // Imports every plugin of the set with its SDK (the optional plugins' config modules too): seconds on a busy machine.
  it('a lazy slot keeps the very schema and name its definition has', { timeout: E2E_TIMEOUT_MS }, async () => {
    const slots = await pluginSlots();
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
    'aalis chat without MCP, OpenTelemetry, platform or model-server settings never loads those packages',
    async () => {
      const run = await executedSources('plain');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('hello');
      // The observation works: the start build ran, and the engine's own functions are seen.
      expect(run.builds).toBe(1);
      expect(run.sources).toContain('packages/plugins/plugin-agent/src/index.ts');
      expect(run.sources).toContain('packages/plugins/plugin-llm-offline/src/index.ts');
      expect(matching(run.sources, LAZY)).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'an OTEL_* variable loads the OpenTelemetry plugin, and its SDK only when it exports',
    async () => {
      // An exporter the plugin refuses: it loads, reports the problem, and starts no SDK.
      const run = await executedSources('otel', { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('AALIS_OTEL_UNSUPPORTED_PROTOCOL');
      expect(run.sources).toContain('packages/plugins/plugin-otel/src/index.ts');
      expect(
        matching(run.sources, ['node_modules/@opentelemetry/sdk-trace-base/', 'packages/plugins/plugin-mcp/']),
      ).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );
});
