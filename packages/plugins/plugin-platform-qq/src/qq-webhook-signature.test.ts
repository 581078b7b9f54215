import { describe, expect, it } from 'vitest';
import { QqWebhookSignature } from './qq-webhook-signature.js';

describe('QqWebhookSignature', () => {
  it('verifies what the same secret signed, and nothing altered or signed by another secret', () => {
    const ours = new QqWebhookSignature('DG5g3B4j9X2KOErG');
    const body = '{"op":0,"t":"C2C_MESSAGE_CREATE"}';
    const signature = ours.sign(`1725442341${body}`);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(ours.verify('1725442341', body, signature)).toBe(true);
    expect(ours.verify('1725442342', body, signature)).toBe(false);
    expect(ours.verify('1725442341', `${body} `, signature)).toBe(false);
    expect(ours.verify('1725442341', body, 'zz')).toBe(false);
    expect(new QqWebhookSignature('another-secret-entirely').verify('1725442341', body, signature)).toBe(false);
  });

  it('signs deterministically (ed25519), a short secret repeated to the 32-byte seed', () => {
    expect(new QqWebhookSignature('abc').sign('x')).toBe(new QqWebhookSignature('abcabc').sign('x'));
    expect(new QqWebhookSignature('abc').sign('x')).not.toBe(new QqWebhookSignature('abd').sign('x'));
  });
});
