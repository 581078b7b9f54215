// npm run bench media: the three goals, each against a baseline measured in the same run.
// 1. A 100-page text PDF ready for the model (read, cut into parts, stored, described) — goal ≤ 2 s; baseline: pdf.js
//    alone extracting the same pages' text.
// 2. A described image seen again — goal 0 model calls; baseline: its first description (one model call).
// 3. Transcription overhead beyond the provider's time — not built yet (no speech-to-text client); said so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { media } from '@aalis/api-media';
import { type I18n, translate } from '@aalis/core';
import { FileReader, fileReaderConfigSchema, UploadStore } from '@aalis/plugin-file-reader';
import { textPdf } from '@aalis/plugin-file-reader/testing';
import hooksPlugin from '@aalis/plugin-hooks';
import openaiPlugin from '@aalis/plugin-llm-openai';
import storagePlugin from '@aalis/plugin-storage';
import { bootApp, startOpenAiTestServer, textReply } from '@aalis/testing';
import mediaPlugin from '../src/index.js';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function pdfGoal(): Promise<void> {
  const pdf = await textPdf(100);
  const directory = mkdtempSync(join(tmpdir(), 'aalis-bench-media-'));
  const i18n: I18n = { locale: 'en', t: (text) => translate(text, 'en') };
  const reader = new FileReader({
    config: fileReaderConfigSchema.validate({}).value,
    store: new UploadStore(join(directory, 'uploads')),
    i18n,
  });
  // pdf.js is loaded once per process, on the first PDF (the file reader imports it lazily): timed apart.
  let at = performance.now();
  await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const load = performance.now() - at;
  const baseline = async () => {
    const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, verbosity: 0 }).promise;
    for (let page = 1; page <= document.numPages; page++) await (await document.getPage(page)).getTextContent();
    await document.destroy();
  };
  const ours = async (round: number) => {
    // A different session each round: a new file id, so every round reads, cuts and stores the whole file.
    const { attachment } = await reader.read(
      { type: 'file', name: 'report.pdf', data: Buffer.from(pdf).toString('base64') },
      `bench-${round}`,
    );
    if (!attachment.description?.includes('100 pages')) throw new Error('the PDF was not read whole');
  };
  at = performance.now();
  await ours(-1);
  const first = performance.now() - at;
  const oursTimes: number[] = [];
  const baseTimes: number[] = [];
  for (let round = 0; round < 5; round++) {
    at = performance.now();
    await baseline();
    baseTimes.push(performance.now() - at);
    at = performance.now();
    await ours(round);
    oursTimes.push(performance.now() - at);
  }
  rmSync(directory, { recursive: true, force: true });
  const warm = median(oursTimes);
  console.log('1. 100-page text PDF ready for the model (goal ≤ 2000 ms)');
  console.log(`   loading pdf.js (once per process, on the first PDF): ${ms(load)}`);
  console.log(`   first PDF after that: ${ms(first)}  ${first <= 2000 ? 'within' : 'OVER'} the goal`);
  console.log(
    `   median of 5: ${ms(warm)}; pdf.js text extraction alone: ${ms(median(baseTimes))}; ratio ${(warm / median(baseTimes)).toFixed(2)}×`,
  );
}

async function imageGoal(): Promise<void> {
  const server = await startOpenAiTestServer({ models: ['eye'] });
  server.enqueue(textReply('A single red pixel.'));
  const dataDir = mkdtempSync(join(tmpdir(), 'aalis-bench-media-'));
  const booted = await bootApp({
    plugins: [
      [storagePlugin, { dataDir }],
      hooksPlugin,
      [
        openaiPlugin,
        {
          baseUrl: server.url,
          fetchModels: false,
          models: [{ id: 'eye', capabilities: { vision: true } }],
          retry: { maxRetries: 0 },
        },
        { id: 'vision' },
      ],
      mediaPlugin,
    ],
  });
  const service = booted.app.services.selected(media)!.impl;
  const image = {
    type: 'image' as const,
    mimeType: 'image/png',
    data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  };
  const calls = () => server.chatBodies().length;
  let at = performance.now();
  await service.describe({ ...image });
  const first = performance.now() - at;
  const firstCalls = calls();
  const again: number[] = [];
  for (let round = 0; round < 20; round++) {
    at = performance.now();
    // A new attachment object each time (as a new message would carry): the hash is computed, the cache answers.
    await service.describe({ ...image });
    again.push(performance.now() - at);
  }
  await booted.stop();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log('2. A described image seen again (goal: 0 model calls)');
  console.log(`   first description: ${firstCalls} model call, ${ms(first)} (baseline)`);
  console.log(
    `   seen again ×20: ${calls() - firstCalls} model calls, median ${ms(median(again))}; ratio ${(median(again) / first).toFixed(3)}× of the first`,
  );
}

await pdfGoal();
await imageGoal();
console.log('3. Transcription overhead beyond the provider: not measured — speech-to-text is not built yet.');
