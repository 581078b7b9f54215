// The package must run in browsers (the Pling runtime): no Node built-ins, no dependency but schema-message.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = import.meta.dirname;

describe('portability', () => {
  it('imports nothing but its own files and @aalis/schema-message', () => {
    const sources = readdirSync(dir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    const imports = sources.flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/from '([^']+)'/g)].map((match) => match[1]!),
    );
    expect(imports.filter((source) => !source.startsWith('./') && source !== '@aalis/schema-message')).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(dir, '..', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).toEqual(['@aalis/schema-message']);
  });
});
