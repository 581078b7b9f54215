// The optional first-party plugins: a slot whose package is installed is a lazy slot like any other; one whose
// package is not installed keeps its key, is never enabled, and a section for it is a problem naming the command.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPTIONAL_PLUGINS } from '@aalis/optional-plugins';
import { afterEach, describe, expect, it } from 'vitest';
import runtimeManifest from '../package.json' with { type: 'json' };
import { formatConfigProblems } from './config-problems.js';
import { isPluginPackage } from './installed-plugins.js';
import { loadConfig } from './load-config.js';
import { isMissingPackage, optionalSlot, type PluginSlot, pluginSlots } from './plugin-set.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A package name nothing installs: importing it fails the way a deployment without an optional plugin does. */
const ABSENT = '@aalis/plugin-absent-for-this-test';

function load(text: string, slots: readonly PluginSlot[]) {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-optional-'));
  dirs.push(dir);
  const file = join(dir, 'aalis.config.yaml');
  writeFileSync(file, text);
  return loadConfig({ file, env: {}, slots, createIfMissing: false, systemTimeZone: () => 'UTC' });
}

/** The runtime's slots with media's as a deployment without @aalis/plugin-media has it. */
async function withoutMedia(): Promise<PluginSlot[]> {
  const absent = await optionalSlot(
    ABSENT,
    () => import(/* @vite-ignore */ `${ABSENT}/config`),
    () => ({ schema: undefined as never }),
    () => import(/* @vite-ignore */ ABSENT),
    { alias: 'media', summary: 'media' },
  );
  return (await pluginSlots()).map((slot) =>
    slot.alias === 'media' ? { ...absent, name: '@aalis/plugin-media' } : slot,
  );
}

describe('optional plugins', () => {
  it('are optional peer dependencies of the runtime, not dependencies, and devDependencies for its own tests', () => {
    const manifest = runtimeManifest as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const name of OPTIONAL_PLUGINS) {
      expect(manifest.dependencies[name], name).toBeUndefined();
      expect(manifest.peerDependencies[name], name).toBeDefined();
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(manifest.devDependencies[name], name).toBeDefined();
    }
  });

  it('aalis plugin add takes them as it takes a third-party plugin, and no other first-party package', () => {
    expect(isPluginPackage({ name: '@aalis/plugin-platform-telegram', dependencies: { '@aalis/core': '0.1.0' } })).toBe(
      true,
    );
    expect(isPluginPackage({ name: 'aalis-plugin-x', peerDependencies: { '@aalis/core': '^0.1.0' } })).toBe(true);
    // A plugin every deployment has with the runtime, and a package that is no plugin.
    expect(isPluginPackage({ name: '@aalis/plugin-agent', dependencies: { '@aalis/core': '0.1.0' } })).toBe(false);
    expect(isPluginPackage({ name: 'left-pad' })).toBe(false);
  });

  it('an installed one is a lazy slot with its package name and schema', async () => {
    const slots = await pluginSlots();
    for (const name of OPTIONAL_PLUGINS) {
      const slot = slots.find((candidate) => candidate.name === name);
      expect(slot?.notInstalled, name).toBeUndefined();
      expect(slot?.schema, name).toBeDefined();
      expect(slot?.load, name).toBeTypeOf('function');
    }
  });

  it('a package that is not installed gives a slot that says so; a failure inside an installed one is thrown', async () => {
    const absent = await optionalSlot(
      ABSENT,
      () => import(/* @vite-ignore */ `${ABSENT}/config`),
      () => ({ schema: undefined as never }),
      () => import(/* @vite-ignore */ ABSENT),
      { alias: 'absent', summary: 'not here' },
    );
    expect(absent).toMatchObject({ alias: 'absent', name: ABSENT, notInstalled: true });
    expect(absent.schema).toBeUndefined();
    expect(absent.load).toBeUndefined();
    expect(absent.enabledWhen?.({}, {})).toBe(false);
    // The package is there but one of its own imports is not: a broken install, not an optional plugin left out.
    const broken = Object.assign(new Error(`Cannot find package 'pdfjs-dist' imported from /x/index.js`), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    expect(isMissingPackage(broken, '@aalis/plugin-file-reader')).toBe(false);
    await expect(
      optionalSlot(
        '@aalis/plugin-file-reader',
        () => Promise.reject(broken),
        () => ({ schema: undefined as never }),
        () => import(/* @vite-ignore */ ABSENT),
        { alias: 'file-reader', summary: '' },
      ),
    ).rejects.toBe(broken);
  });

  it('a section for one that is not installed is AALIS_RUNTIME_PLUGIN_NOT_INSTALLED with the command; false or none starts', async () => {
    const slots = await withoutMedia();
    const refused = load('plugins:\n  media:\n    describeModel: openai/gpt-4o\n', slots);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.problems).toEqual([
      expect.objectContaining({ kind: 'pluginNotInstalled', path: 'plugins.media', name: '@aalis/plugin-media' }),
    ]);
    const en = formatConfigProblems(refused.problems, 'en');
    expect(en).toContain('AALIS_RUNTIME_PLUGIN_NOT_INSTALLED');
    expect(en).toContain('aalis plugin add @aalis/plugin-media');
    expect(en).toMatch(/line 2/);
    expect(formatConfigProblems(refused.problems, 'zh-CN')).toContain('运行 aalis plugin add @aalis/plugin-media');
    // By its package name as key, and as `true`, the same.
    const byName = load("plugins:\n  '@aalis/plugin-media': true\n", slots);
    expect(byName.ok || byName.problems.map((problem) => problem.kind)).toEqual(['pluginNotInstalled']);
    for (const text of ['plugins:\n  media: false\n', 'plugins: {}\n']) {
      const started = load(text, slots);
      expect(started.ok, text).toBe(true);
      if (started.ok) expect(started.config.plugins.map((plugin) => plugin.slot.alias)).not.toContain('media');
    }
  });
});
