// @plingjs/core runs in browsers: no node: imports, no process, and only @plingjs/agent, the shared pure
// @aalis/schema-message (argument validation) and the browser-safe @aalis/render-markdown (the docks' replies).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const sourceDir = import.meta.dirname;
const sources = readdirSync(sourceDir).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.case.ts'),
);
const allowed = ['@aalis/render-markdown', '@aalis/schema-message', '@plingjs/agent'];

describe('@plingjs/core portability', () => {
  it('depends on @plingjs/agent, @aalis/schema-message and @aalis/render-markdown only', () => {
    const manifest = JSON.parse(readFileSync(join(sourceDir, '..', 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(allowed);
    expect(manifest.dependencies['@plingjs/agent']).toBe('0.1.0-alpha.2');
    expect(manifest.dependencies['@aalis/schema-message']).toBe('0.1.0');
    expect(manifest.dependencies['@aalis/render-markdown']).toBe('0.1.0');
  });

  it.each(sources)('%s imports nothing from Node and reads no process', (file) => {
    const text = readFileSync(join(sourceDir, file), 'utf8');
    expect(text).not.toMatch(/from ['"]node:/);
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    expect(code).not.toMatch(/\bprocess\b/);
    expect(text).not.toMatch(/require\(/);
    const imports = [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
    expect(imports.filter((source) => !source.startsWith('./') && !allowed.includes(source))).toEqual([]);
  });
});
