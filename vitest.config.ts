import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * Tests run against the workspace packages' TypeScript sources: their exports' "source" condition. It is applied
 * to workspace packages only (resolved here), not as a global condition, because Vitest hands global conditions to
 * Node for externalised dependencies, and some of those publish a "source" condition of their own that points to
 * TypeScript Node cannot load (eventsource, used by the MCP SDK).
 */
function workspaceSources(): Plugin {
  const packagesDir = join(import.meta.dirname, 'packages');
  const entries = new Map<string, string>();
  for (const dir of readdirSync(packagesDir)) {
    const file = join(packagesDir, dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
      name: string;
      exports?: Record<string, { source?: string } | string>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target === 'object' && target.source) {
        entries.set(join(manifest.name, subpath).replace(/\/\.$/, ''), join(packagesDir, dir, target.source));
      }
    }
  }
  return {
    name: 'workspace-sources',
    enforce: 'pre',
    resolveId(id) {
      return entries.get(id) ?? null;
    },
  };
}

export default defineConfig({
  plugins: [workspaceSources()],
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.mjs'],
  },
});
