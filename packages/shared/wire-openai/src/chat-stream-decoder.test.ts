import { describe, expect, it } from 'vitest';
import { ChatStreamDecoder } from './chat-stream-decoder.js';
import { WireStreamError } from './wire-error.js';

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;

describe('ChatStreamDecoder', () => {
  it('decodes bytes split inside a multi-byte character', () => {
    const bytes = new TextEncoder().encode(`${chunk('你好')}${chunk('!', 'stop')}data: [DONE]\n\n`);
    const decoder = new ChatStreamDecoder();
    const texts: string[] = [];
    for (let at = 0; at < bytes.length; at += 7) {
      for (const event of decoder.push(bytes.subarray(at, at + 7)))
        if (event.type === 'text-delta') texts.push(event.text);
    }
    decoder.end();
    const response = decoder.response();
    expect(texts.join('')).toBe('你好!');
    expect(response.content).toBe('你好!');
    expect(decoder.sawDone).toBe(true);
  });

  it('ignores anything after [DONE]', () => {
    const decoder = new ChatStreamDecoder();
    decoder.push(`${chunk('a')}data: [DONE]\n\ndata: not json\n\n`);
    decoder.end();
    expect(decoder.response().content).toBe('a');
  });

  it('throws on malformed data, naming it', () => {
    const decoder = new ChatStreamDecoder();
    expect(() => decoder.push('data: {"choices": [oops\n\n')).toThrowError(WireStreamError);
    try {
      new ChatStreamDecoder().push('data: {"choices": [oops\n\n');
    } catch (error) {
      expect(error).toMatchObject({ kind: 'malformed-data', line: '{"choices": [oops' });
    }
  });

  it('throws the server message of an error inside the stream', () => {
    const decoder = new ChatStreamDecoder();
    expect(() => decoder.push(`data: ${JSON.stringify({ error: { message: 'overloaded', code: 'x' } })}\n\n`)).toThrow(
      expect.objectContaining({ kind: 'error-event', error: { message: 'overloaded', code: 'x' } }),
    );
    expect(() => new ChatStreamDecoder().push('event: error\ndata: {"message":"bad"}\n\n')).toThrow(
      expect.objectContaining({ kind: 'error-event', error: { message: 'bad' } }),
    );
  });

  it('hands out the events before bad data, then throws', () => {
    const decoder = new ChatStreamDecoder();
    const events = decoder.push(`${chunk('good')}data: {bad\n\n${chunk('lost')}`);
    expect(events).toEqual([{ type: 'text-delta', text: 'good' }]);
    expect(() => decoder.throwIfFailed()).toThrow(expect.objectContaining({ kind: 'malformed-data', line: '{bad' }));
    expect(() => decoder.push(chunk('more'))).toThrow(WireStreamError);
    expect(decoder.end()).toEqual([]);
    expect(() => decoder.response()).toThrow(expect.objectContaining({ kind: 'malformed-data' }));
  });

  it('keeps events that arrive with the end of the body', () => {
    const decoder = new ChatStreamDecoder();
    decoder.push('data: {"choices":[{"delta":{"content":"tail"},"finish_reason":"stop"}]}');
    expect(decoder.end()).toEqual([{ type: 'text-delta', text: 'tail' }]);
    expect(decoder.response().content).toBe('tail');
  });

  it('reports a stream cut before it finished as truncated', () => {
    const decoder = new ChatStreamDecoder();
    decoder.push(chunk('partial'));
    expect(decoder.end()).toEqual([]);
    expect(() => decoder.response()).toThrow(expect.objectContaining({ kind: 'truncated' }));
  });

  it('accepts a stream that finished without [DONE]', () => {
    const decoder = new ChatStreamDecoder();
    decoder.push(chunk('whole', 'stop'));
    decoder.end();
    expect(decoder.response().finishReason).toBe('stop');
  });

  it('passes unknown lines to the caller', () => {
    const lines: string[] = [];
    const decoder = new ChatStreamDecoder({ onUnknownLine: (line) => lines.push(line) });
    decoder.push(`not sse\n${chunk('x', 'stop')}`);
    decoder.end();
    decoder.response();
    expect(lines).toEqual(['not sse']);
  });
});
