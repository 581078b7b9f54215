// `npm run bench memory`: time to read the window (the last 200 conversation messages, via countHistory + read
// from) of one session holding 1k, 10k and 100k messages, against the naive "load the active history, then slice".
// Goal: the window read stays flat as the archive grows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryService, memory as memoryDescriptor } from '@aalis/api-memory';
import { App, memorySink } from '@aalis/core';
import storagePlugin from '@aalis/plugin-storage';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import memoryPlugin from '../src/index.js';

const WINDOW = 200;
const SIZES = [1_000, 10_000, 100_000];
const REPEATS = 30;
const BATCH = 1_000;

const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(3);

function messageAt(index: number): Message {
  if (index % 50 === 49) return { role: 'system', content: 'turn record', kind: 'event-marker' };
  return {
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `#${index} ${filler}`,
    metadata: { [WellKnownMetadataKeys.TurnId]: `t${Math.floor(index / 2)}` },
  };
}

async function seed(memory: MemoryService, sessionId: string, total: number, dividerBeforeLast?: number) {
  const dividerAt = dividerBeforeLast === undefined ? -1 : total - dividerBeforeLast;
  for (let start = 0; start < total; start += BATCH) {
    const batch: Message[] = [];
    for (let index = start; index < Math.min(total, start + BATCH); index++) {
      if (index === dividerAt) batch.push({ role: 'system', content: '', kind: 'compression-divider' });
      batch.push(messageAt(index));
    }
    await memory.append(sessionId, batch);
  }
}

async function median(run: () => Promise<unknown>): Promise<number> {
  for (let warm = 0; warm < 3; warm++) await run();
  const times: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-memory-bench-'));
  const app = new App({ logSinks: [memorySink()] });
  app.plugin(storagePlugin, { dataDir: dir });
  app.plugin(memoryPlugin);
  await app.start();
  const memory = app.registry.select(memoryDescriptor.name)?.impl as MemoryService;
  const layouts = [
    { name: 'all active (no divider)', dividerBeforeLast: undefined },
    { name: 'divider before the last 1k', dividerBeforeLast: 1_000 },
  ];
  try {
    for (const layout of layouts) {
      console.log(`\nlayout: ${layout.name}; window = last ${WINDOW} conversation messages; median of ${REPEATS}`);
      console.log(
        `${'messages'.padStart(9)} ${'window read'.padStart(12)} ${'naive'.padStart(12)} ${'rows'.padStart(6)}`,
      );
      const windowTimes: number[] = [];
      for (const size of SIZES) {
        const sessionId = `bench-${size}-${layout.dividerBeforeLast ?? 'none'}`;
        await seed(memory, sessionId, size, layout.dividerBeforeLast);
        let rows = 0;
        const windowRead = await median(async () => {
          const count = await memory.countHistory(sessionId);
          rows = (await memory.read(sessionId, { from: Math.max(0, count - WINDOW) })).length;
        });
        const naive = await median(async () => (await memory.read(sessionId)).slice(-WINDOW));
        windowTimes.push(windowRead);
        console.log(
          `${String(size).padStart(9)} ${`${windowRead.toFixed(3)} ms`.padStart(12)} ${`${naive.toFixed(3)} ms`.padStart(12)} ${String(rows).padStart(6)}`,
        );
      }
      const ratio = windowTimes[windowTimes.length - 1]! / windowTimes[0]!;
      console.log(`window read ratio 100k/1k: ${ratio.toFixed(2)} (goal: flat, ≈ 1)`);
    }
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
