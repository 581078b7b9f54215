// The callback's cryptography (WeCom's "加解密方案"): msg_signature = SHA1 of the sorted token, timestamp, nonce and
// ciphertext; messages AES-256-CBC with the EncodingAESKey (IV = its first 16 bytes), PKCS#7 to 32 bytes, the
// plaintext framed as random(16) + length(4) + message + receive id (empty for intelligent bots) — done by the
// maintained @wecom/crypto. Files a message points to (images) are encrypted with the same key, without the frame.
import { createDecipheriv, randomBytes, timingSafeEqual } from 'node:crypto';
import { decrypt, encrypt, getSignature } from '@wecom/crypto';

export interface SealedReply {
  encrypt: string;
  msgsignature: string;
  timestamp: number;
  nonce: string;
}

export class WecomCrypto {
  constructor(
    private readonly token: string,
    private readonly encodingAESKey: string,
  ) {}

  /** Whether `signature` signs the ciphertext (constant time). */
  verify(signature: string, timestamp: string, nonce: string, ciphertext: string): boolean {
    const expected = Buffer.from(getSignature(this.token, timestamp, nonce, ciphertext));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** The plaintext of a ciphertext; throws when the key does not fit it. */
  open(ciphertext: string): string {
    return decrypt(this.encodingAESKey, ciphertext).message;
  }

  /** A reply: encrypted and signed. */
  seal(plaintext: string): SealedReply {
    const timestamp = Math.floor(Date.now() / 1000);
    const nonce = randomBytes(8).toString('hex');
    const ciphertext = encrypt(this.encodingAESKey, plaintext, '');
    return {
      encrypt: ciphertext,
      msgsignature: getSignature(this.token, timestamp, nonce, ciphertext),
      timestamp,
      nonce,
    };
  }

  /** A file a message points to, decrypted. */
  openFile(data: Buffer): Buffer {
    const key = Buffer.from(`${this.encodingAESKey}=`, 'base64');
    const decipher = createDecipheriv('aes-256-cbc', key, key.subarray(0, 16));
    decipher.setAutoPadding(false);
    const plain = Buffer.concat([decipher.update(data), decipher.final()]);
    const pad = plain[plain.length - 1] ?? 0;
    return pad >= 1 && pad <= 32 ? plain.subarray(0, plain.length - pad) : plain;
  }
}
