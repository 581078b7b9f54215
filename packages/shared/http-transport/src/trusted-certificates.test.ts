// caFile: merged with the default roots; a missing or non-PEM file is a coded configuration error naming the path.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { loadTrustedCertificates } from './trusted-certificates.js';

const dir = mkdtempSync(join(tmpdir(), 'aalis-ca-'));

function failure(caFile: string) {
  try {
    loadTrustedCertificates({ caFile, plugin: 'local' });
  } catch (error) {
    return error as Error & { code: string; details: Record<string, unknown> };
  }
  throw new Error('expected a failure');
}

describe('loadTrustedCertificates', () => {
  it('is undefined without caFile (Node keeps its defaults)', () => {
    expect(loadTrustedCertificates({ caFile: undefined, plugin: 'local' })).toBeUndefined();
  });

  it('adds the file’s certificates to the default roots', () => {
    const file = join(dir, 'bundle.pem');
    // Two real certificates, with text around them as in many CA bundles.
    writeFileSync(file, `# corporate CA\n${rootCertificates[0]}\nnoise\n${rootCertificates[1]}\n`);
    const trusted = loadTrustedCertificates({ caFile: file, plugin: 'local' })!;
    expect(trusted).toHaveLength(rootCertificates.length + 2);
    expect(trusted.slice(0, rootCertificates.length)).toEqual(rootCertificates);
    expect(trusted.at(-1)).toBe(rootCertificates[1]);
  });

  it('reports a missing file with its absolute path and the system’s reason', () => {
    const error = failure(join(dir, 'missing.pem'));
    expect(error.code).toBe('AALIS_LLM_OPENAI_CA_FILE_UNREADABLE');
    expect(error.message).toContain(join(dir, 'missing.pem'));
    expect(error.message).toContain('ENOENT');
    expect(error.message).toContain('remove caFile');
  });

  it('reports a file without a valid PEM certificate', () => {
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'not a certificate\n');
    expect(failure(empty).code).toBe('AALIS_LLM_OPENAI_CA_FILE_INVALID');
    const broken = join(dir, 'broken.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(failure(broken)).toMatchObject({ code: 'AALIS_LLM_OPENAI_CA_FILE_INVALID', details: { path: broken } });
    expect(failure(dir).code).toBe('AALIS_LLM_OPENAI_CA_FILE_UNREADABLE'); // a directory (EISDIR)
  });
});
