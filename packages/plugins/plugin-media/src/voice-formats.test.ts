// A voice made ready for platforms' voice messages: Ogg/Opus kept as it is, MP3 converted, SILK for QQ's official
// bots (decoded again by silk-wasm to check it is a real one), its length and waveform from the decoded audio.
import { speechAudio } from '@aalis/testing';
import { decode as decodeSilk } from 'silk-wasm';
import { describe, expect, it } from 'vitest';
import { voiceAs, waveformOf } from './voice-formats.js';

const limits = () => ({ signal: AbortSignal.timeout(20_000), maxBytes: 10 * 1024 * 1024 });
const audio = (bytes: Uint8Array, mimeType = 'audio/ogg') => ({
  type: 'audio' as const,
  mimeType,
  data: Buffer.from(bytes).toString('base64'),
});

describe('voiceAs', () => {
  it('keeps Ogg/Opus, converts MP3 to it, and encodes SILK; each with its length and waveform', async () => {
    // speechTone: 60 ms per character, so 10 characters play 0.6 s.
    const text = 'a'.repeat(10);
    const ogg = await speechAudio(text, 'opus');
    const kept = await voiceAs(audio(ogg), 'ogg-opus', limits());
    expect(Buffer.from(kept.bytes).equals(ogg)).toBe(true);
    expect(kept).toMatchObject({ mimeType: 'audio/ogg', extension: 'ogg' });
    expect(kept.durationMs).toBeGreaterThan(550);
    expect(kept.durationMs).toBeLessThan(650);
    expect(kept.waveform).toHaveLength(6);
    expect(Math.max(...kept.waveform)).toBe(255);

    const fromMp3 = await voiceAs(audio(await speechAudio(text, 'mp3'), 'audio/mpeg'), 'ogg-opus', limits());
    expect(Buffer.from(fromMp3.bytes.subarray(0, 4)).toString('latin1')).toBe('OggS');

    const silk = await voiceAs(audio(ogg), 'silk', limits());
    expect(silk).toMatchObject({ mimeType: 'audio/silk', extension: 'silk' });
    expect(Buffer.from(silk.bytes.subarray(0, 10)).toString('latin1')).toBe('\u0002#!SILK_V3');
    const decoded = await decodeSilk(silk.bytes, 24_000);
    expect(Math.abs(decoded.duration - kept.durationMs)).toBeLessThan(100);
  });

  it('refuses what is not audio, and an empty attachment, with coded errors', async () => {
    await expect(voiceAs(audio(Buffer.from('just some text, not a voice')), 'silk', limits())).rejects.toMatchObject({
      code: 'AALIS_MEDIA_NOT_AUDIO',
    });
    await expect(voiceAs({ type: 'audio' }, 'ogg-opus', limits())).rejects.toMatchObject({
      code: 'AALIS_MEDIA_NO_AUDIO_DATA',
    });
  });

  it('draws the waveform from the peaks, loudest slice 255, at most 256 points', () => {
    const pcm = Buffer.alloc(24_000 * 2 * 60); // a minute: 600 slices of 100 ms, more than 256
    for (let i = 0; i < 24_000; i++) pcm.writeInt16LE(i % 2 ? 10_000 : -10_000, i * 2); // only the first second
    const waveform = waveformOf(pcm);
    expect(waveform).toHaveLength(256);
    expect(waveform[0]).toBe(255);
    expect(waveform.at(-1)).toBe(0);
  });
});
