// Plugins installed from the registry into a deployment (`aalis plugin add`): every dependency in the deployment's
// package.json that declares @aalis/core as a peer dependency and is not one of the runtime's own packages. Each
// becomes a plugin slot named after its package (its section: `plugins: { '<package>': {…} }`), enabled by default,
// loaded only when the host starts.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyPluginDefinition } from '@aalis/core';
import { isOptionalPlugin } from '@aalis/optional-plugins';
import type { PluginSlot } from './plugin-set.js';

export interface InstalledPackage {
  name: string;
  dir: string;
  manifest: {
    name: string;
    version?: string;
    description?: string;
    main?: string;
    exports?: unknown;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
}

/** Where Node would find a package from `dir`: the first node_modules/<name> up the tree. */
export function findInstalled(dir: string, name: string): InstalledPackage | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', ...name.split('/'));
    if (existsSync(join(candidate, 'package.json'))) {
      return { name, dir: candidate, manifest: JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8')) };
    }
    if (dirname(at) === at) return undefined;
  }
}

/** The file an `import` of the package loads: its exports' import/default entry for ".", else main, else index.js. */
export function entryFile(installed: InstalledPackage): string {
  const root = (installed.manifest.exports as Record<string, unknown> | string | undefined) ?? undefined;
  const dot = typeof root === 'object' && root !== null && '.' in root ? root['.'] : root;
  const pick = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (value && typeof value === 'object') {
      const conditions = value as Record<string, unknown>;
      return pick(conditions.import) ?? pick(conditions.node) ?? pick(conditions.default);
    }
    return undefined;
  };
  return join(installed.dir, pick(dot) ?? installed.manifest.main ?? 'index.js');
}

/** Whether a package is a third-party Aalis plugin (it states the core versions it works with). */
export function isThirdPartyPlugin(manifest: InstalledPackage['manifest']): boolean {
  return manifest.peerDependencies?.['@aalis/core'] !== undefined && !manifest.name.startsWith('@aalis/');
}

/** Whether `aalis plugin add` may add the package: a third-party plugin, or an optional first-party one. */
export function isPluginPackage(manifest: InstalledPackage['manifest']): boolean {
  return isThirdPartyPlugin(manifest) || isOptionalPlugin(manifest.name);
}

/**
 * The third-party plugins the deployment at `dir` depends on and has installed, by name, each with the version range
 * its package.json gives (none without a readable package.json).
 */
export function installedThirdParty(dir: string): { installed: InstalledPackage; spec: string }[] {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return [];
  let dependencies: Record<string, string>;
  try {
    dependencies =
      (JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  } catch {
    return [];
  }
  return Object.keys(dependencies)
    .sort()
    .flatMap((name) => {
      const installed = findInstalled(dir, name);
      return installed && isThirdPartyPlugin(installed.manifest) ? [{ installed, spec: dependencies[name] ?? '' }] : [];
    });
}

/** The slots of the plugins installed in the deployment at `dir` (none without a package.json). */
export function installedPluginSlots(dir: string): PluginSlot[] {
  const slots: PluginSlot[] = [];
  for (const { installed } of installedThirdParty(dir)) {
    const { name } = installed;
    const slot: PluginSlot = {
      alias: name,
      name,
      summary: installed.manifest.description ?? name,
      load: async () => {
        const module = (await import(pathToFileURL(entryFile(installed)).href)) as { default?: AnyPluginDefinition };
        if (!module.default) throw new Error(`${name} has no default export (its plugin definition)`);
        // Known once loaded (an installed plugin always is): the console's settings form and its checks use it.
        if (module.default.config) slot.schema = module.default.config;
        return module.default;
      },
    };
    slots.push(slot);
  }
  return slots;
}
