import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mintLinkToken, verifyLinkToken } from './login-link.js';
import { checkAttachments, checkText } from './message-checks.js';

describe('link tokens', () => {
  const secret = randomBytes(32);
  it('verifies its own tokens, refuses other secrets, tampering and old tokens', () => {
    const token = mintLinkToken({ secret, userId: 'alice', now: 1_000_000 });
    expect(verifyLinkToken({ secret, token, ttlMs: 60_000, now: 1_030_000 })).toMatchObject({
      ok: true,
      userId: 'alice',
    });
    expect(verifyLinkToken({ secret: randomBytes(32), token, ttlMs: 60_000, now: 1_030_000 })).toEqual({
      ok: false,
      reason: 'signature',
    });
    expect(
      verifyLinkToken({
        secret,
        token: token.replace(Buffer.from('alice').toString('base64url'), Buffer.from('owner').toString('base64url')),
        ttlMs: 60_000,
        now: 1_030_000,
      }).ok,
    ).toBe(false);
    expect(verifyLinkToken({ secret, token, ttlMs: 60_000, now: 1_070_000 })).toEqual({ ok: false, reason: 'expired' });
    expect(verifyLinkToken({ secret, token: 'garbage', ttlMs: 60_000 })).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('message checks', () => {
  const limits = { maxMessageChars: 5, maxAttachments: 1, maxAttachmentBytes: 3 };
  it('counts characters, not UTF-16 units, and checks size before decoding', () => {
    expect(checkText(limits, '😀😀😀😀😀')).toBe('😀😀😀😀😀');
    expect(() => checkText(limits, '123456')).toThrow(/6/);
    expect(checkAttachments(limits, [{ type: 'image', mimeType: 'image/png', data: 'AAAA' }])).toEqual([
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
    ]);
    expect(() => checkAttachments(limits, [{ type: 'image', mimeType: 'image/png', data: 'AAAAAAAA' }])).toThrow(
      expect.objectContaining({ code: 'AALIS_WEBUI_ATTACHMENT_TOO_LARGE' }),
    );
    expect(() => checkAttachments(limits, [{}, {}])).toThrow(
      expect.objectContaining({ code: 'AALIS_WEBUI_TOO_MANY_ATTACHMENTS' }),
    );
  });
});
