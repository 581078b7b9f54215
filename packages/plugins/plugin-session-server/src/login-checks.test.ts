// The CSRF header is compared as a secret: equal texts only, in time that does not depend on where they differ (both
// sides hashed to one length, then timingSafeEqual). The audit found it compared with `!==`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CSRF_HEADER, sameSecret } from './login-checks.js';

describe('sameSecret', () => {
  const token = 'Zk3r9-QwErTy_uIoP1234567890abcdEFGH';

  it('accepts only the same text', () => {
    expect(sameSecret(token, token)).toBe(true);
    expect(sameSecret(`${token}`, token.slice(0))).toBe(true);
    expect(sameSecret(undefined, token)).toBe(false);
    expect(sameSecret('', token)).toBe(false);
    expect(sameSecret(token.slice(0, -1), token)).toBe(false);
    expect(sameSecret(`${token}x`, token)).toBe(false);
    expect(sameSecret(`${token.slice(0, -1)}I`, token)).toBe(false);
    expect(sameSecret(token.toLowerCase(), token)).toBe(false);
    expect(sameSecret('令牌', '令牌')).toBe(true);
    expect(sameSecret('令牌', '令')).toBe(false);
  });

  it('is how every request checks the CSRF header (no other comparison of it)', () => {
    const source = readFileSync(new URL('./http-app.ts', import.meta.url), 'utf8');
    const reads = source.split('\n').filter((line) => line.includes('header(CSRF_HEADER)'));
    expect(reads.length).toBeGreaterThan(0);
    for (const line of reads) expect(line).toMatch(/sameSecret\(c\.req\.header\(CSRF_HEADER\), login\.csrfToken\)/);
    expect(source).not.toMatch(/csrfToken\s*[!=]==|[!=]==\s*\w*\.?csrfToken/);
    expect(CSRF_HEADER).toBe('x-aalis-csrf');
  });
});
