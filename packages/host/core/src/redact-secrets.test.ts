import { describe, expect, it } from 'vitest';
import { redactor } from './redact-secrets.js';

describe('redactor', () => {
  it('replaces every occurrence of each secret, and leaves values shorter than 4 characters alone', () => {
    const redact = redactor(['sk-abcdef', 'pw1234', 'abc']);
    expect(redact('key sk-abcdef and sk-abcdef, pw1234; abc stays')).toBe('key *** and ***, ***; abc stays');
    expect(redact('nothing secret here')).toBe('nothing secret here');
  });

  it('redacts a secret added to the list after it was made (a key entered through the console)', () => {
    const secrets = ['sk-start-1234'];
    const redact = redactor(secrets);
    expect(redact('a sk-start-1234 b sk-later-5678')).toBe('a *** b sk-later-5678');
    secrets.push('sk-later-5678');
    expect(redact('a sk-start-1234 b sk-later-5678')).toBe('a *** b ***');
  });
});
