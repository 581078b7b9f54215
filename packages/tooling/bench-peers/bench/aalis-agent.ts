// Aalis as the product runs: startAalis from @aalis/runtime with the default plugin set (SQLite persistence, hooks,
// usage events, the file log at info, its own trimming and memory summary), the bench's lookup tool registered by a
// plugin, and turns through the agent service's handleMessage — as the concurrency bench drives it, and from the
// same esbuild bundle the aalis command runs (BENCH_SOURCE=1: the TypeScript sources through tsx).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryVector } from '@aalis/api-memory-vector';
import { tools } from '@aalis/api-tools';
import { definePlugin } from '@aalis/core';
import { loadProduct, type Product } from '../../../host/runtime/bench/concurrency-product.js';
import { lookupValue, TOOL_DESCRIPTION, TOOL_KEY_DESCRIPTION, TOOL_NAME } from '../src/model-script.js';
import { type BenchAgent, type BenchAgentOptions, MODEL_ID } from './bench-agent.js';

const MAX_OUTPUT_TOKENS = 1024;
/** Without a budget: a large window, so nothing is trimmed (as for the peers). */
const UNTRIMMED_WINDOW = 128_000;

const lookupPlugin = definePlugin({
  name: '@aalis/bench-peers/lookup',
  uses: { tools },
  apply({ tools }) {
    tools.use.register({
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      parameters: {
        type: 'object',
        properties: { key: { type: 'string', description: TOOL_KEY_DESCRIPTION } },
        required: ['key'],
        additionalProperties: false,
      },
      handler: (args: { key: string }) => lookupValue(args.key),
    });
  },
});

/**
 * The trim budget is the context window less the max output and the 512-token safety margin (trimBudget in
 * @aalis/context-budget), so a budget of B tokens is a window of B + 1024 + 512.
 */
export function contextWindowFor(budget: number | undefined): number {
  return budget === undefined ? UNTRIMMED_WINDOW : budget + MAX_OUTPUT_TOKENS + 512;
}

let product: Promise<Product> | undefined;
/** The product, built (or loaded) once per run; its bundle is removed when the process exits. */
function theProduct(): Promise<Product> {
  product ??= loadProduct().then((loaded) => {
    process.once('exit', () => loaded.dispose());
    return loaded;
  });
  return product;
}

/** How Aalis was loaded, for the report (after the first agent was created). */
export async function aalisForm(): Promise<string> {
  return (await theProduct()).form;
}

/** A CPU profile with the bundle's frames put back at their sources (cpuprofile-summary.mjs reads them by file). */
export async function profileToSources(profile: object): Promise<object> {
  return product ? (await product).toSources(profile) : profile;
}

/** Lets callbacks scheduled for the next turns of the event loop (setImmediate) run. */
async function loopTurns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

export async function createAalisAgent({ url, dir, budget }: BenchAgentOptions): Promise<BenchAgent> {
  const { startAalis, agent } = await theProduct();
  const configFile = join(dir, 'aalis.config.yaml');
  writeFileSync(
    configFile,
    `locale: en
llm:
  baseUrl: ${url}
  model: ${MODEL_ID}
  contextWindow: ${contextWindowFor(budget)}
  maxOutputTokens: ${MAX_OUTPUT_TOKENS}
plugins:
  llm-openai:
    fetchModels: false
    retry: { maxRetries: 0 }
`,
  );
  const running = await startAalis({
    cwd: dir,
    configFile,
    mode: 'none',
    banner: false,
    createConfigIfMissing: false,
    env: { AALIS_DATA_DIR: join(dir, 'data'), AALIS_LOG_LEVEL: 'info' },
    plugins: [lookupPlugin],
  });
  const service = running.app.services.selected(agent)!.impl;
  const memory = running.app.services.selected(memoryVector)?.impl;
  return {
    name: 'Aalis (startAalis)',
    async turn(sessionId, text) {
      await service.handleMessage({ sessionId, platform: 'cli', sender: { userId: `u-${sessionId}` }, content: text });
      // What the product does for this turn after the reply is part of the turn's cost: the long-term memory index
      // written in the background, the group commit and the lease given back once the session is idle. Every
      // subject runs in this one process, so left undone here it would be measured in the next subject's window
      // (often this framework's own floor). A user's turns are seconds apart, so each turn's index is written alone.
      await loopTurns(2);
      await memory?.settled();
      await loopTurns(2);
    },
    close: () => running.stop(),
  };
}
