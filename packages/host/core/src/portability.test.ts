// @aalis/core must run in a browser: no runtime dependencies, no node: imports, no process.env.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const sourceDir = import.meta.dirname;
const sources = readdirSync(sourceDir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));

describe('@aalis/core portability', () => {
  it('has no runtime dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(sourceDir, '..', 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  it.each(sources)('%s imports nothing from Node and reads no process.env', (file) => {
    const text = readFileSync(join(sourceDir, file), 'utf8');
    expect(text).not.toMatch(/from ['"]node:/);
    expect(text).not.toMatch(/\bprocess\.env\b/);
    expect(text).not.toMatch(/require\(/);
  });
});
