// npm run bench media: the three goals, each against a baseline measured in the same run.
// 1. A 100-page text PDF ready for the model (read, cut into parts, stored, described) — goal ≤ 2 s; baseline: pdf.js
//    alone extracting the same pages' text.
// 2. A described image seen again — goal 0 model calls; baseline: its first description (one model call).
// 3. Transcription adds only the provider's time: a voice input through the real agent to its model request, minus
//    the same input as text (baseline), against the provider's own time measured at the local speech-to-text server.
// 4. Voice replies (no goal in the issue; measured the same way): a turn whose reply leaves with its voice, minus the
//    same turn with voiceReply off, against the local /audio/speech server's own time — answering Ogg/Opus (sent as
//    it is) and WAV (converted to Ogg/Opus by ffmpeg here).
// 5. A voice made ready for a platform's voice message (media.voiceAs: its length and waveform for Discord, Lark and
//    DingTalk, SILK for QQ's official bots), against the local speech server making the same voice (baseline).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { media } from '@aalis/api-media';
import { type I18n, translate } from '@aalis/core';
import { startHarness } from '@aalis/plugin-agent/testing';
import { FileReader, fileReaderConfigSchema, UploadStore } from '@aalis/plugin-file-reader';
import { textPdf } from '@aalis/plugin-file-reader/testing';
import hooksPlugin from '@aalis/plugin-hooks';
import openaiPlugin from '@aalis/plugin-llm-openai';
import storagePlugin from '@aalis/plugin-storage';
import {
  bootApp,
  type SpeechFormat,
  startOpenAiTestServer,
  startSpeechTestServer,
  startTranscriptionTestServer,
  textReply,
} from '@aalis/testing';
import { encode as encodeSilk } from 'silk-wasm';
import { wavFromPcm } from '../src/audio-for-transcription.js';
import mediaPlugin from '../src/index.js';
import { voiceAs } from '../src/voice-formats.js';

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

/** Three seconds of a tone, 16-bit mono PCM: the length of a typical voice note's first words. */
function tone(rate: number, seconds: number): Buffer {
  const pcm = Buffer.alloc(rate * seconds * 2);
  for (let i = 0; i < rate * seconds; i++)
    pcm.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  return pcm;
}

async function transcriptionGoal(): Promise<void> {
  const PROVIDER_MS = 150;
  const chat = await startOpenAiTestServer();
  const stt = await startTranscriptionTestServer({
    fallback: () => ({ text: '明天早上八点叫我起床', delayMs: PROVIDER_MS }),
  });
  // Baseline: the same voice input through the same agent with transcription unset (the recording is carried,
  // stored and noted the same way; only the transcription is missing).
  const withStt = await startHarness({
    server: chat,
    extra: [[mediaPlugin, { transcription: { baseUrl: stt.url, model: 'whisper-1' } }]] as never,
  });
  const without = await startHarness({ server: chat, extra: [[mediaPlugin, {}]] as never });
  const wav = Buffer.from(wavFromPcm(tone(16_000, 3), 16_000)).toString('base64');
  const silk = Buffer.from((await encodeSilk(tone(24_000, 3), 24_000)).data).toString('base64');
  const rounds = 15;
  const run = async (label: string, attachment: Record<string, string>) => {
    const times = { with: [] as number[], without: [] as number[], provider: [] as number[] };
    for (let round = 0; round < rounds + 2; round++) {
      for (const [key, harness] of [
        ['without', without],
        ['with', withStt],
      ] as const) {
        chat.enqueue(textReply('好的'));
        const before = stt.requests.length;
        const at = performance.now();
        await harness.say('', {
          sessionId: `cli:bench-${label}-${round}`,
          attachments: [{ type: 'audio' as const, ...attachment }],
        });
        const took = performance.now() - at;
        // The first two rounds warm up (wasm compiled, connections opened).
        if (round < 2) continue;
        times[key].push(took);
        if (key === 'with') times.provider.push(stt.requests[before]!.serverMs!);
      }
    }
    const baseline = median(times.without);
    const e2e = median(times.with);
    const provider = median(times.provider);
    const added = e2e - baseline;
    console.log(
      `   ${label}: untranscribed ${ms(baseline)} (baseline); transcribed ${ms(e2e)}; added ${ms(added)}, of which the provider ${ms(provider)}, ours ${ms(added - provider)} (added/provider ${(added / provider).toFixed(2)}×)`,
    );
  };
  console.log(
    `3. Transcription adds only the provider's time (a voice input to its model request through the real agent; medians of ${rounds}; the provider answers after ${PROVIDER_MS} ms)`,
  );
  await run('3 s WAV (sent as it is)', { mimeType: 'audio/wav', name: 'voice.wav', data: wav });
  await run('3 s QQ SILK (decoded to WAV first)', { mimeType: 'audio/amr', name: 'voice.amr', data: silk });
  await withStt.close();
  await without.close();
  await chat.close();
  await stt.close();
}

async function voiceOutGoal(): Promise<void> {
  const rounds = 15;
  const reply = '好的，明天早上八点叫你起床，记得早点睡。';
  console.log(
    `4. Voice replies: what a spoken reply adds beyond the speech server's own time (a turn through the real agent and gateway, voiceReply on vs off; medians of ${rounds})`,
  );
  for (const answer of ['opus', 'wav'] as SpeechFormat[]) {
    const chat = await startOpenAiTestServer();
    const tts = await startSpeechTestServer({ answerFormat: answer });
    const speech = { speech: { baseUrl: tts.url, responseFormat: answer === 'wav' ? 'wav' : 'opus' } };
    const spoken = await startHarness({ server: chat, extra: [[mediaPlugin, speech]] as never });
    const silent = await startHarness({ server: chat, extra: [[mediaPlugin, speech]] as never });
    await spoken.command('/session.set voiceReply on');
    const times = { on: [] as number[], off: [] as number[], provider: [] as number[] };
    for (let round = 0; round < rounds + 2; round++) {
      for (const [key, harness] of [
        ['off', silent],
        ['on', spoken],
      ] as const) {
        chat.enqueue(textReply(reply));
        const before = tts.requests.length;
        const at = performance.now();
        await harness.say('明早叫我');
        const took = performance.now() - at;
        if (round < 2) continue;
        times[key].push(took);
        if (key === 'on') times.provider.push(tts.requests[before]!.serverMs!);
      }
    }
    const added = median(times.on) - median(times.off);
    const provider = median(times.provider);
    console.log(
      `   server answers ${answer === 'opus' ? 'Ogg/Opus (sent as it is)' : 'WAV (converted by ffmpeg)'}: voiceReply off ${ms(median(times.off))} (baseline); on ${ms(median(times.on))}; added ${ms(added)}, of which the server ${ms(provider)}, ours ${ms(added - provider)} (added/server ${(added / provider).toFixed(2)}×)`,
    );
    await spoken.close();
    await silent.close();
    await chat.close();
    await tts.close();
  }
}

async function platformVoiceGoal(): Promise<void> {
  const rounds = 15;
  const reply = '好的，明天早上八点叫你起床，记得早点睡。今天的天气不错，适合出门走走。';
  const tts = await startSpeechTestServer();
  const fetchVoice = async () => {
    const response = await fetch(`${tts.url}/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', input: reply, voice: 'alloy', response_format: 'opus' }),
    });
    return Buffer.from(await response.arrayBuffer());
  };
  const voice = await fetchVoice();
  const attachment = { type: 'audio' as const, mimeType: 'audio/ogg', data: voice.toString('base64') };
  const limits = () => ({ signal: AbortSignal.timeout(30_000), maxBytes: 10 * 1024 * 1024 });
  const times = { server: [] as number[], ogg: [] as number[], silk: [] as number[] };
  let seconds = 0;
  for (let round = 0; round < rounds + 2; round++) {
    let at = performance.now();
    await fetchVoice();
    const server = performance.now() - at;
    at = performance.now();
    seconds = (await voiceAs(attachment, 'ogg-opus', limits())).durationMs / 1000;
    const ogg = performance.now() - at;
    at = performance.now();
    await voiceAs(attachment, 'silk', limits());
    const silk = performance.now() - at;
    if (round < 2) continue;
    times.server.push(server);
    times.ogg.push(ogg);
    times.silk.push(silk);
  }
  const server = median(times.server);
  console.log(
    `5. A voice made ready for a platform (media.voiceAs, a ${seconds.toFixed(1)} s reply; medians of ${rounds}): the speech server making it ${ms(server)} (baseline); Ogg/Opus measured (length, waveform) ${ms(median(times.ogg))} (${(median(times.ogg) / server).toFixed(2)}×); SILK for QQ ${ms(median(times.silk))} (${(median(times.silk) / server).toFixed(2)}×)`,
  );
  await tts.close();
}

await pdfGoal();
await imageGoal();
await transcriptionGoal();
await voiceOutGoal();
await platformVoiceGoal();
