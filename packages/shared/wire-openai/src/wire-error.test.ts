import { describe, expect, it } from 'vitest';
import { classifyWireError, isRetryableStatus, parseWireError } from './wire-error.js';

describe('parseWireError', () => {
  it('reads OpenAI error bodies and looser shapes', () => {
    expect(parseWireError({ body: '{"error":{"message":"nope","type":"invalid_request_error","code":"x"}}' })).toEqual({
      message: 'nope',
      type: 'invalid_request_error',
      code: 'x',
    });
    expect(parseWireError({ body: '{"error":"plain"}' })).toEqual({ message: 'plain' });
    expect(parseWireError({ body: '{"detail":"Not Found"}' })).toEqual({ message: 'Not Found' });
    expect(parseWireError({ body: '<html>502</html>' })).toEqual({ message: '<html>502</html>' });
    expect(parseWireError({ body: '', fallback: 'Bad Gateway' })).toEqual({ message: 'Bad Gateway' });
  });
});

describe('classifyWireError', () => {
  const classify = (status: number, message = '', code?: string) =>
    classifyWireError({ status, error: code ? { message, code } : { message } });

  it('classifies by status, code and message', () => {
    expect(classify(401)).toBe('auth');
    expect(classify(403)).toBe('auth');
    expect(classify(429)).toBe('rate-limited');
    expect(classify(400, "This model's maximum context length is 8192 tokens")).toBe('context-too-long');
    expect(classify(400, 'x', 'context_length_exceeded')).toBe('context-too-long');
    expect(classify(413)).toBe('context-too-long');
    expect(classify(404, 'The model `gpt-9` does not exist')).toBe('model-not-found');
    expect(classify(404, 'Cannot POST /chat/completions')).toBe('endpoint-not-found');
    expect(classify(500)).toBe('server');
    expect(classify(408)).toBe('server');
    expect(classify(400, 'bad field')).toBe('bad-request');
  });

  it('retries 408, 409, 429 and 5xx only', () => {
    expect([400, 401, 404, 408, 409, 429, 500, 503].map(isRetryableStatus)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});
