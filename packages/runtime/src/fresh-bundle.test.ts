// The bundle `aalis` runs in a checkout is rebuilt whenever a source it is built from changes: its fingerprint must
// change with any such source (and not with a test file).
import { statSync, utimesSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the bin folder, without declarations
import { sourceFingerprint } from '../bin/fresh-bundle.mjs';

const fingerprint = sourceFingerprint as () => string;

function touched(file: string, run: () => void): void {
  const { atime, mtime } = statSync(file);
  utimesSync(file, atime, new Date(mtime.getTime() + 5_000));
  try {
    run();
  } finally {
    utimesSync(file, atime, mtime);
  }
}

describe('the bundle fingerprint', () => {
  it('changes when a source of the runtime or of a package it depends on changes', () => {
    const before = fingerprint();
    for (const source of ['./banner.ts', '../../context-budget/src/trim-messages.ts']) {
      const file = fileURLToPath(new URL(source, import.meta.url));
      touched(file, () => expect(fingerprint()).not.toBe(before));
    }
  });

  it('does not change for a test file', () => {
    const before = fingerprint();
    touched(fileURLToPath(import.meta.url), () => expect(fingerprint()).toBe(before));
  });
});
