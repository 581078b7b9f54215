// @plingjs/agent runs in browsers: no node: imports, no process, and only the three shared workspace packages.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const sourceDir = import.meta.dirname;
const sources = readdirSync(sourceDir).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.case.ts'),
);
const allowed = ['@aalis/context-budget', '@aalis/schema-message', '@aalis/wire-openai'];

describe('@plingjs/agent portability', () => {
  it('depends on the shared pure parts only', () => {
    const manifest = JSON.parse(readFileSync(join(sourceDir, '..', 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(allowed);
  });

  it('is the version the specification describes (版本与兼容性: 适用版本 @plingjs/agent 0.1.0-alpha.2) and has no peer dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(sourceDir, '..', 'package.json'), 'utf8'));
    expect(manifest.version).toBe('0.1.0-alpha.2');
    expect(manifest.peerDependencies ?? {}).toEqual({});
  });

  it.each(sources)('%s imports nothing from Node and reads no process', (file) => {
    const text = readFileSync(join(sourceDir, file), 'utf8');
    expect(text).not.toMatch(/from ['"]node:/);
    // Comments may mention the word; code may not use the global.
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    expect(code).not.toMatch(/\bprocess\b/);
    expect(text).not.toMatch(/require\(/);
    const imports = [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
    expect(imports.filter((source) => !source.startsWith('./') && !allowed.includes(source))).toEqual([]);
  });
});
