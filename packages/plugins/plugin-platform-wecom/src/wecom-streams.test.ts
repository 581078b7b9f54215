import { describe, expect, it } from 'vitest';
import { WecomStreams } from './wecom-streams.js';

describe('WecomStreams', () => {
  it('puts a reply into the stream of the message it answers, else the chat’s oldest open one, within the window', () => {
    let now = 0;
    const streams = new WecomStreams(1_000, () => now);
    const first = streams.open('chat', 'm1', 'https://r/1');
    const second = streams.open('chat', 'm2', 'https://r/2');
    expect(streams.open('chat', 'm1')).toBe(first);
    expect(streams.target('chat', 'm2')).toBe(second);
    expect(streams.target('chat')).toBe(first);
    expect(streams.target('other', 'm2')).toBeUndefined();
    streams.finish(first, 'done');
    expect(streams.target('chat')).toBe(second);
    now = 1_000;
    expect(streams.target('chat', 'm2')).toBeUndefined();
  });

  it('hands each response_url out once, the answered message’s first', () => {
    const streams = new WecomStreams(1_000);
    streams.open('chat', 'm1', 'https://r/1');
    streams.open('chat', 'm2', 'https://r/2');
    expect(streams.takeResponseUrl('chat', 'm1')).toBe('https://r/1');
    expect(streams.takeResponseUrl('chat', 'm1')).toBe('https://r/2');
    expect(streams.takeResponseUrl('chat')).toBeUndefined();
  });

  it('keeps the response_url of a message without a stream, and forgets a discarded message entirely', () => {
    const streams = new WecomStreams(1_000);
    streams.keepResponseUrl('chat', 'm1', 'https://r/1');
    expect(streams.forMessage('m1')).toBeUndefined();
    const second = streams.open('chat', 'm2', 'https://r/2');
    streams.discard('m2');
    expect(streams.forMessage('m2')).toBeUndefined();
    expect(streams.get(second.id)).toBeUndefined();
    expect(streams.target('chat')).toBeUndefined();
    expect(streams.takeResponseUrl('chat', 'm2')).toBe('https://r/1');
    expect(streams.takeResponseUrl('chat')).toBeUndefined();
  });
});
