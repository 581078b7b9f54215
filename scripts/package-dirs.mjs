// Where the workspace's packages live: packages/<role>/<dir>, one folder per role, so the tree says what each
// package is — contracts (api-*), the host (core, runtime, the create-* starters), plugins (plugin-*, platform-room),
// Pling (pling-*), shared libraries and tooling (test helpers, benchmarks, release checks). npm names do not change.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROLE_FOLDERS = ['contracts', 'host', 'plugins', 'pling', 'shared', 'tooling'];

const SHARED = new Set([
  'schema-message',
  'context-budget',
  'wire-openai',
  'render-markdown',
  'session-client',
  'sqlite',
  'postgres',
  'http-transport',
  'optional-plugins',
]);
const TOOLING = new Set(['testing', 'release', 'pling-browser-testing']);
const HOST = new Set(['core', 'runtime', 'create-aalis', 'create-aalis-plugin']);

/** The role folder a package folder named `dir` belongs in; undefined when no rule places it. */
export function roleOf(dir) {
  if (dir.startsWith('api-')) return 'contracts';
  if (dir.startsWith('plugin-') || dir === 'platform-room') return 'plugins';
  if (TOOLING.has(dir) || dir.startsWith('bench-')) return 'tooling';
  if (dir.startsWith('pling-')) return 'pling';
  if (SHARED.has(dir) || dir.startsWith('util-')) return 'shared';
  if (HOST.has(dir)) return 'host';
  return undefined;
}

/**
 * Every workspace package, sorted by role then folder: `dir` its folder's name, `folder` its path under packages/
 * ('plugins/plugin-agent'), `path` absolute.
 */
export function packageDirs(root) {
  const found = [];
  for (const role of ROLE_FOLDERS) {
    const roleDir = join(root, 'packages', role);
    if (!existsSync(roleDir)) continue;
    for (const dir of readdirSync(roleDir).sort()) {
      const path = join(roleDir, dir);
      if (existsSync(join(path, 'package.json'))) found.push({ dir, folder: `${role}/${dir}`, path });
    }
  }
  return found;
}
