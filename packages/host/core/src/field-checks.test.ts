import { describe, expect, it } from 'vitest';
import { failedField, fieldIs } from './field-checks.js';

const whole = { field: '(message)', expected: 'an object' };
const checks = [fieldIs.nonEmptyString('sessionId'), fieldIs.object('sender'), fieldIs.string('content')];

describe('failedField', () => {
  it('names the first field that breaks its check, with what came instead', () => {
    expect(failedField({ sessionId: 's', sender: null, content: 1 }, whole, checks)).toEqual({
      field: 'sender',
      expected: 'an object',
      received: 'null',
    });
    expect(failedField({ sessionId: '', sender: {}, content: '' }, whole, checks)).toMatchObject({
      field: 'sessionId',
      expected: 'a non-empty string',
    });
  });

  it('checks the value itself first', () => {
    expect(failedField('text', whole, checks)).toMatchObject({ field: '(message)', expected: 'an object' });
    expect(failedField(null, whole, checks)).toEqual({ field: '(message)', expected: 'an object', received: 'null' });
  });

  it('passes a value that meets every check', () => {
    expect(failedField({ sessionId: 's', sender: {}, content: '' }, whole, checks)).toBeUndefined();
  });
});
