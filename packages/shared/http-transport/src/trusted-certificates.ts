// The CA certificates an https base URL is checked against when `caFile` is set: Node's bundled roots plus every
// certificate in the file (Node's `ca` option replaces the roots, so they are merged here). Read and checked once,
// at activation, so that a bad file is a configuration error rather than a failure in the middle of a call.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { rootCertificates } from 'node:tls';
import { transportErrors } from './transport-errors.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

export function loadTrustedCertificates({
  caFile,
  plugin,
}: {
  caFile: string | undefined;
  plugin: string;
}): string[] | undefined {
  if (caFile === undefined) return undefined;
  const path = resolve(caFile);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw transportErrors.AALIS_LLM_OPENAI_CA_FILE_UNREADABLE({ plugin, path, reason });
  }
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0 || !certificates.every(isCertificate)) {
    throw transportErrors.AALIS_LLM_OPENAI_CA_FILE_INVALID({ plugin, path });
  }
  return [...rootCertificates, ...certificates];
}

function isCertificate(pem: string): boolean {
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}
