// The key of the embedding cache: a text's SHA-256, so a text said again (or read again on catch-up or re-index) is
// embedded once per model.
import { createHash } from 'node:crypto';

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
