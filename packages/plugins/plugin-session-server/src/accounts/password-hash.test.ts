// Password hashing: argon2id PHC strings that verify the right password only, a policy error that names the
// length and never the password, and a decoy check for accounts without a hash.
import { describe, expect, it } from 'vitest';
import { accountErrors } from './account-errors.js';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './password-hash.js';

describe('password hashing', () => {
  it('stores argon2id hashes, salted, that verify the password and nothing else', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse');
    expect(await verifyPassword(first, 'correct horse')).toBe(true);
    expect(await verifyPassword(first, 'correct horsf')).toBe(false);
    expect(await verifyPassword(undefined, 'correct horse')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse')).toBe(false);
  });

  it('refuses passwords shorter than 8 or longer than 256 characters, saying the length only', () => {
    expect(() => checkPasswordPolicy('12345678')).not.toThrow();
    expect(() => checkPasswordPolicy('密码密码密码密码')).not.toThrow();
    let refusal: unknown;
    try {
      checkPasswordPolicy('hunter2');
    } catch (error) {
      refusal = error;
    }
    expect(accountErrors.AALIS_WEBUI_PASSWORD_WEAK.is(refusal)).toBe(true);
    const error = refusal as Error & { localized(locale: string): string; details: object };
    expect(error.message).toContain('7 characters');
    expect(error.localized('zh-CN')).toContain('7 个字符');
    expect(`${error.message}${JSON.stringify(error.details)}`).not.toContain('hunter2');
    expect(() => checkPasswordPolicy('x'.repeat(257))).toThrow();
  });
});
