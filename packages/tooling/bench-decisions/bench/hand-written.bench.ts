// The figures behind docs/decisions/hand-written-*.md and time-ordered-message-ids.md: each of our hand-written parts against the maintained library
// that does the same job, on the same input in the same run — throughput, where they disagree, and the minified
// (and gzipped) size each adds to a bundle. Run: npm run bench hand-written
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { s } from '@aalis/core';
import { displayWidth } from '@aalis/plugin-cli';
import { memoryMigrations } from '@aalis/plugin-memory-sqlite';
import { validateJsonSchema } from '@aalis/schema-message';
import { SseParser } from '@aalis/wire-openai';
import Ajv from 'ajv';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import stringWidth from 'string-width';
import { v7 as uuidV7 } from 'uuid';
import { z } from 'zod';
// A bench-only deep import: the id generator is internal to the memory stores.
import { newMessageId } from '../../../plugins/plugin-memory-sqlite/src/message-id.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');

// eventsource-parser 3.1.1 publishes a "source" export condition (its TypeScript), which the bench runner's
// --conditions=source (meant for our workspace packages) selects and Node cannot load: take its built file.
const { createParser } = (await import(
  pathToFileURL(join(root, 'node_modules', 'eventsource-parser', 'dist', 'index.js')).href
)) as typeof import('eventsource-parser');

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
    `  size: ours ${await size("export { SseParser } from './packages/shared/wire-openai/src/sse-parser.ts'", 'browser')}; eventsource-parser ${await size("export { createParser } from 'eventsource-parser'", 'browser')}`,
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
    `  size: ours ${await size("export { validateJsonSchema } from './packages/shared/schema-message/src/validate-json-schema.ts'", 'browser')}; ajv ${await size("export { default } from 'ajv'", 'browser')}`,
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
    `  size: ours ${await size("export { displayWidth } from './packages/plugins/plugin-cli/src/display-width.ts'", 'node')}; string-width ${await size("export { default } from 'string-width'", 'node')}`,
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
    `  size: ours ${await size("export { s } from './packages/host/core/src/schema.ts'", 'browser')}; zod ${await size("export { z } from 'zod'", 'browser')}; zod/mini ${await size("export * from 'zod/mini'", 'browser')}`,
  );
}

// --- HTTP proxy tunnelling ------------------------------------------------------------------------------------
console.log(
  'HTTP proxy tunnelling: bundle size of what a provider needs (functional parity is in the decision record)',
);
console.log(
  `  ours (tunnel agent, NO_PROXY, proxy settings, HTTP exchange): ${await size(
    "export { TunnelAgent } from './packages/shared/http-transport/src/tunnel-agent.ts'; export { resolveProxy } from './packages/shared/http-transport/src/proxy-settings.ts'; export { HttpExchange } from './packages/shared/http-transport/src/http-exchange.ts'",
    'node',
  )}`,
);
console.log(
  `  undici 7.30.2 (EnvHttpProxyAgent, ProxyAgent, request): ${await size("export { EnvHttpProxyAgent, ProxyAgent, request } from 'undici'", 'node')}`,
);

// --- message ids ----------------------------------------------------------------------------------------------
{
  const ids = 200_000;
  let sink = 0;
  const oursMs = time(() => {
    for (let index = 0; index < ids; index++) sink += newMessageId().length;
  });
  const theirsMs = time(() => {
    for (let index = 0; index < ids; index++) sink += uuidV7().length;
  });
  const v4Ms = time(() => {
    for (let index = 0; index < ids; index++) sink += randomUUID().length;
  });
  console.log(`message ids: ${ids} version-7 UUIDs (${sink > 0 ? 'all made' : ''})`);
  row('ours (newMessageId)', oursMs, theirsMs);
  row('uuid 14.0.3 v7', theirsMs, theirsMs);
  row('node:crypto randomUUID (version 4)', v4Ms, theirsMs);

  // What the order of the ids does to appends: the memory schema as migrated, rows of 300 characters, a table of
  // 200k rows first (a store some weeks old), then 20k appends — one per commit for one session, 30 per commit
  // across 100 sessions (the group commit under load). CPU µs per append, median of three alternating runs.
  const appendCost = (id: () => string, sessions: number, perCommit: number): number => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-bench-ids-'));
    const db = new Database(join(dir, 'memory.db'));
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.exec(memoryMigrations[0]!.up as string);
      const insert = db.prepare(
        'INSERT INTO memory_messages (session_id, seq, id, epoch, conversation_index, turn_id, role, kind, content, timestamp, extra) VALUES (?, ?, ?, 0, ?, ?, ?, NULL, ?, ?, NULL)',
      );
      const next = new Array<number>(sessions).fill(0);
      const content = 'x'.repeat(300);
      let appended = 0;
      const commit = db.transaction((rows: number) => {
        for (let row = 0; row < rows; row++) {
          const session = appended++ % sessions;
          const seq = next[session]!++;
          insert.run(`s${session}`, seq, id(), seq, `t${seq >> 2}`, 'user', content, Date.now());
        }
      });
      for (let row = 0; row < 200_000; row += 500) commit.immediate(500);
      const appends = 20_000;
      const started = process.cpuUsage();
      for (let row = 0; row < appends; row += perCommit) commit.immediate(perCommit);
      const used = process.cpuUsage(started);
      return (used.user + used.system) / appends;
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  for (const [sessions, perCommit] of [
    [1, 1],
    [100, 30],
  ] as const) {
    const v4: number[] = [];
    const v7: number[] = [];
    for (let run = 0; run < 3; run++) {
      v4.push(appendCost(randomUUID, sessions, perCommit));
      v7.push(appendCost(newMessageId, sessions, perCommit));
    }
    const middle = (values: number[]) => values.sort((a, b) => a - b)[1]!;
    console.log(
      `  append into 200k rows, ${sessions} session(s), ${perCommit} per commit: version-4 ids ${middle(v4).toFixed(1)} µs, ours ${middle(v7).toFixed(1)} µs CPU per append (${(middle(v7) / middle(v4)).toFixed(2)}×)`,
    );
  }
}
