// The figures behind docs/decisions/hand-written-*.md: each of our hand-written parts against the maintained library
// that does the same job, on the same input in the same run — throughput, where they disagree, and the minified
// (and gzipped) size each adds to a bundle. Run: npm run bench hand-written
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { s } from '@aalis/core';
import { displayWidth } from '@aalis/plugin-cli';
import { validateJsonSchema } from '@aalis/schema-message';
import { SseParser } from '@aalis/wire-openai';
import Ajv from 'ajv';
import { build } from 'esbuild';
import { createParser } from 'eventsource-parser';
import stringWidth from 'string-width';
import { z } from 'zod';

const root = join(import.meta.dirname, '..', '..', '..');

function time(run: () => void, rounds = 7): number {
  for (let warm = 0; warm < 2; warm++) run();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
}

async function size(contents: string, platform: 'node' | 'browser'): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform,
    conditions: ['source'],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return `${(code.length / 1024).toFixed(1)} KiB min, ${(gzipSync(code).length / 1024).toFixed(1)} KiB gzip`;
}

function row(label: string, ms: number, base: number, extra = ''): void {
  console.log(`  ${label.padEnd(34)} ${ms.toFixed(2).padStart(8)} ms  ${(ms / base).toFixed(2)}× ${extra}`);
}

// --- SSE ------------------------------------------------------------------------------------------------------
{
  const events = 50_000;
  let body = '';
  for (let index = 0; index < events; index++)
    body += `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"tok${index} "}}\n\n`;
  // Network-sized pieces that split lines anywhere.
  const pieces: string[] = [];
  for (let at = 0; at < body.length; at += 1_337) pieces.push(body.slice(at, at + 1_337));
  let ours = 0;
  let theirs = 0;
  const oursMs = time(() => {
    const parser = new SseParser({ onData: () => ours++ });
    for (const piece of pieces) parser.push(piece);
  });
  const theirsMs = time(() => {
    const parser = createParser({ onEvent: () => theirs++ });
    for (const piece of pieces) parser.feed(piece);
  });
  console.log(`SSE: ${events} events in ${pieces.length} pieces (${(body.length / 1e6).toFixed(1)} MB), per pass`);
  row('ours (@aalis/wire-openai SseParser)', oursMs, theirsMs, `same count: ${ours === theirs}`);
  row('eventsource-parser 3.1.1', theirsMs, theirsMs);
  console.log(
    `  size: ours ${await size("export { SseParser } from './packages/wire-openai/src/sse-parser.ts'", 'browser')}; eventsource-parser ${await size("export { createParser } from 'eventsource-parser'", 'browser')}`,
  );
}

// --- JSON Schema ----------------------------------------------------------------------------------------------
{
  const schema = {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1 },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      units: { enum: ['metric', 'imperial'] },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    },
    required: ['city'],
    additionalProperties: false,
  } as const;
  const values = [
    { city: 'Paris', days: 3, units: 'metric', tags: ['a'] },
    { city: '', days: 30, extra: true },
  ];
  const calls = 20_000;
  const ajv = new Ajv({ allErrors: true, strict: false });
  const compiled = ajv.compile(schema);
  compiled(values[1]);
  const ajvErrors = compiled.errors?.length;
  const oursMs = time(() => {
    for (let index = 0; index < calls; index++) validateJsonSchema(schema, values[index % 2]);
  });
  const ajvCachedMs = time(() => {
    for (let index = 0; index < calls; index++) compiled(values[index % 2]);
  });
  // A tool's schema is seen once per registration or list_changed (MCP): compile + one validation.
  const fresh = 300;
  const oursFreshMs = time(() => {
    for (let index = 0; index < fresh; index++) validateJsonSchema({ ...schema, title: `t${index}` }, values[0]);
  });
  const ajvFreshMs = time(() => {
    for (let index = 0; index < fresh; index++)
      new Ajv({ allErrors: true, strict: false }).compile({ ...schema })(values[0]);
  }, 3);
  console.log(
    `JSON Schema: ${calls} validations of tool arguments (half invalid), and ${fresh} first validations of a new schema`,
  );
  row(
    'ours, repeated',
    oursMs,
    ajvCachedMs,
    `violations on the bad value: ${validateJsonSchema(schema, values[1]).length}`,
  );
  row('ajv 8.20.0, compiled once', ajvCachedMs, ajvCachedMs, `errors: ${ajvErrors}`);
  row('ours, new schema each time', oursFreshMs, ajvFreshMs);
  row('ajv, compile + validate', ajvFreshMs, ajvFreshMs);
  console.log(
    `  size: ours ${await size("export { validateJsonSchema } from './packages/schema-message/src/validate-json-schema.ts'", 'browser')}; ajv ${await size("export { default } from 'ajv'", 'browser')}`,
  );
}

// --- terminal string width ------------------------------------------------------------------------------------
{
  const samples = [
    'plain ascii text for the prompt line',
    '你好,世界!这是一行中文。',
    '\x1b[2m⚙ calculator {"expression":"6*7"} …\x1b[0m',
    'Mixed 日本語 and émojis 🎉🚀',
    'e\u0301 combining accent',
    'family 👨‍👩‍👧 ZWJ sequence',
    'flag 🇫🇷 and keycap 1️⃣',
  ];
  const lines = Array.from({ length: 20_000 }, (_, index) => samples[index % samples.length]!);
  const oursMs = time(() => {
    for (const line of lines) displayWidth(line);
  });
  const theirsMs = time(() => {
    for (const line of lines) stringWidth(line);
  });
  const disagreements = samples.filter((sample) => displayWidth(sample) !== stringWidth(sample));
  console.log(`terminal width: ${lines.length} lines (ASCII, CJK, ANSI, emoji, combining marks)`);
  row('ours (@aalis/plugin-cli displayWidth)', oursMs, theirsMs);
  row('string-width 8.3.0', theirsMs, theirsMs);
  console.log(
    `  disagreements: ${disagreements.map((sample) => `${JSON.stringify(sample)} ours ${displayWidth(sample)} / theirs ${stringWidth(sample)}`).join('; ') || 'none'}`,
  );
  console.log(
    `  size: ours ${await size("export { displayWidth } from './packages/plugin-cli/src/display-width.ts'", 'node')}; string-width ${await size("export { default } from 'string-width'", 'node')}`,
  );
}

// --- config schema builder ------------------------------------------------------------------------------------
{
  const ours = s.object({
    baseUrl: s.string().nonEmpty(),
    priority: s.number().default(0),
    models: s
      .array(s.object({ id: s.string().nonEmpty(), contextWindow: s.number().integer().min(1).optional() }))
      .default([]),
    retry: s.object({ maxRetries: s.number().integer().min(0).default(2) }),
  });
  const theirs = z.object({
    baseUrl: z.string().min(1),
    priority: z.number().default(0),
    models: z.array(z.object({ id: z.string().min(1), contextWindow: z.number().int().min(1).optional() })).default([]),
    retry: z.object({ maxRetries: z.number().int().min(0).default(2) }).prefault({}),
  });
  const value = {
    baseUrl: 'https://api.example.com/v1',
    models: [{ id: 'a', contextWindow: 8000 }, { id: 'b' }],
    retry: {},
  };
  const calls = 20_000;
  const oursMs = time(() => {
    for (let index = 0; index < calls; index++) ours.validate(value);
  });
  const theirsMs = time(() => {
    for (let index = 0; index < calls; index++) theirs.safeParse(value);
  });
  console.log(`config schema: ${calls} validations of a provider section`);
  row('ours (@aalis/core s)', oursMs, theirsMs);
  row('zod 4.6.7', theirsMs, theirsMs);
  console.log(
    `  size: ours ${await size("export { s } from './packages/core/src/schema.ts'", 'browser')}; zod ${await size("export { z } from 'zod'", 'browser')}; zod/mini ${await size("export * from 'zod/mini'", 'browser')}`,
  );
}

// --- HTTP proxy tunnelling ------------------------------------------------------------------------------------
console.log(
  'HTTP proxy tunnelling: bundle size of what a provider needs (functional parity is in the decision record)',
);
console.log(
  `  ours (tunnel agent, NO_PROXY, proxy settings, HTTP exchange): ${await size(
    "export { TunnelAgent } from './packages/plugin-llm-openai/src/tunnel-agent.ts'; export { resolveProxy } from './packages/plugin-llm-openai/src/proxy-settings.ts'; export { HttpExchange } from './packages/plugin-llm-openai/src/http-exchange.ts'",
    'node',
  )}`,
);
console.log(
  `  undici 7.30.2 (EnvHttpProxyAgent, ProxyAgent, request): ${await size("export { EnvHttpProxyAgent, ProxyAgent, request } from 'undici'", 'node')}`,
);
