// The signatures of QQ's webhook (HTTP callback) mode: ed25519 with a key made from the bot's AppSecret (repeated to
// 32 bytes: the seed). QQ signs `timestamp + body` of each callback (X-Signature-Ed25519, X-Signature-Timestamp);
// the bot signs `event_ts + plain_token` to prove it holds the secret when the callback URL is checked (op 13).
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/** PKCS#8 DER prefix of an ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export class QqWebhookSignature {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor(secret: string) {
    let seed = secret;
    while (seed.length < 32) seed += secret;
    const der = Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seed.slice(0, 32), 'utf8').subarray(0, 32)]);
    this.privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    this.publicKey = createPublicKey(this.privateKey);
  }

  /** The hex signature of `message`. */
  sign(message: string): string {
    return sign(null, Buffer.from(message, 'utf8'), this.privateKey).toString('hex');
  }

  /** Whether `signatureHex` signs `timestamp + body`. */
  verify(timestamp: string, body: string, signatureHex: string): boolean {
    if (!/^[0-9a-f]{128}$/i.test(signatureHex)) return false;
    return verify(null, Buffer.from(timestamp + body, 'utf8'), this.publicKey, Buffer.from(signatureHex, 'hex'));
  }
}
