import { describe, expect, it } from 'vitest';
import {
  byteLength,
  CHECKPOINT_VERSION,
  decodeCheckpoint,
  encodeCheckpoint,
  type SessionCheckpoint,
} from './checkpoint.js';
import type { SessionEvent } from './session-events.js';

function checkpoint(overrides: Partial<SessionCheckpoint> = {}): SessionCheckpoint {
  const events: SessionEvent[] = Array.from({ length: 20 }, (_, index) => ({
    type: 'message',
    role: index % 2 === 0 ? 'user' : 'assistant',
    text: `message number ${index} ${'x'.repeat(40)}`,
    seq: index + 1,
    at: 1000 + index,
    sessionId: 'default',
  }));
  return {
    version: CHECKPOINT_VERSION,
    sessionId: 'default',
    savedAt: 2000,
    messages: [
      { role: 'user', content: 'mail me at ada@example.com' },
      { role: 'assistant', content: 'ok' },
    ],
    summary: 'earlier: ada@example.com asked for a refund',
    events,
    sequence: 20,
    droppedEvents: 0,
    ...overrides,
  };
}

describe('checkpoint format', () => {
  it('round-trips a checkpoint of this version', () => {
    const original = checkpoint({ run: { turns: 2, awaitingConfirmation: ['call_1'] } });
    const encoded = encodeCheckpoint(original, { maxBytes: 1_000_000 });
    expect(encoded.kind).toBe('checkpoint');
    expect(decodeCheckpoint(encoded.text, 'default')).toEqual({ kind: 'checkpoint', checkpoint: original });
  });

  it('a checkpoint of an unknown version, or an unreadable one, is discarded with its reason', () => {
    const text = encodeCheckpoint(checkpoint(), { maxBytes: 1_000_000 }).text;
    const future = JSON.stringify({ ...JSON.parse(text), version: 2 });
    expect(decodeCheckpoint(future, 'default')).toEqual({ kind: 'discarded', problem: 'unknown-version' });
    expect(decodeCheckpoint('{"messages":[]}', 'default')).toEqual({ kind: 'discarded', problem: 'unknown-version' });
    expect(decodeCheckpoint('not json', 'default')).toEqual({ kind: 'discarded', problem: 'unreadable' });
    expect(decodeCheckpoint('[1]', 'default')).toEqual({ kind: 'discarded', problem: 'unreadable' });
    const broken = JSON.stringify({ ...JSON.parse(text), messages: [{ role: 'robot', content: 'x' }] });
    expect(decodeCheckpoint(broken, 'default')).toEqual({ kind: 'discarded', problem: 'unreadable' });
    expect(decodeCheckpoint(text, 'another-session')).toEqual({ kind: 'discarded', problem: 'unreadable' });
  });

  it('every string is redacted before it is written', () => {
    const redact = (text: string) => text.replaceAll('ada@example.com', '[redacted:email]');
    const { text } = encodeCheckpoint(checkpoint(), { maxBytes: 1_000_000, redact });
    expect(text).not.toContain('ada@example.com');
    expect(text).toContain('mail me at [redacted:email]');
    expect(text).toContain('earlier: [redacted:email] asked');
  });

  it('past the bound the oldest events are left out, the history stays whole', () => {
    const full = encodeCheckpoint(checkpoint(), { maxBytes: 1_000_000 }).text;
    const maxBytes = byteLength(full) - 300;
    const encoded = encodeCheckpoint(checkpoint(), { maxBytes });
    expect(encoded.kind).toBe('checkpoint');
    if (encoded.kind !== 'checkpoint') return;
    expect(byteLength(encoded.text)).toBeLessThanOrEqual(maxBytes);
    const decoded = decodeCheckpoint(encoded.text, 'default');
    if (decoded.kind !== 'checkpoint') throw new Error('expected a checkpoint');
    const kept = decoded.checkpoint.events;
    // As few dropped as needed: one more event would not fit.
    expect(encoded.droppedEvents).toBeGreaterThan(0);
    expect(kept.length + encoded.droppedEvents).toBe(20);
    expect(kept[0]!.seq).toBe(encoded.droppedEvents + 1);
    expect(decoded.checkpoint.droppedEvents).toBe(encoded.droppedEvents);
    expect(decoded.checkpoint.messages).toHaveLength(2);
    expect(byteLength(encodeCheckpoint(checkpoint(), { maxBytes: 1_000_000 }).text)).toBeGreaterThan(maxBytes);
  });

  it('a history larger than the bound leaves a too-large marker, read as discarded: too-large', () => {
    const encoded = encodeCheckpoint(checkpoint(), { maxBytes: 100 });
    expect(encoded.kind).toBe('too-large');
    expect(encoded.text).not.toContain('ada@example.com');
    expect(decodeCheckpoint(encoded.text, 'default')).toEqual({ kind: 'discarded', problem: 'too-large' });
  });
});
