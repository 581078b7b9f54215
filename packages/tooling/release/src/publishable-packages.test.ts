// Every package a deployment installs from the registry can be published as it is: its publish fields, one version
// per product, and what `npm pack` puts in it. The list is read from packages/<role>/*, so a package added tomorrow is
// checked the same way (scripts/new-package.mjs writes these fields for it).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageDirs } from '../../../../scripts/package-dirs.mjs';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

interface Manifest {
  name: string;
  version?: string;
  private?: boolean;
  description?: string;
  license?: string;
  exports?: unknown;
  files?: string[];
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  bin?: Record<string, string> | string;
}

const manifests = packageDirs(root).map(({ path }) => ({
  dir: path,
  manifest: JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as Manifest,
}));
const published = manifests.filter(({ manifest }) => !manifest.private);
const byName = new Map(manifests.map(({ manifest }) => [manifest.name, manifest]));
/** The root's supported Node versions: what every published package declares. */
const NODE_RANGE = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest).engines!.node!;

/** The product a package is released with: its version moves with the others of that product. */
function productOf(name: string): 'aalis' | 'pling' | undefined {
  if (name.startsWith('@aalis/') || name === 'create-aalis' || name === 'create-aalis-plugin') return 'aalis';
  if (name.startsWith('@plingjs/')) return 'pling';
  return undefined;
}

/** What a published package may hold: its manifest, README, licence, built files (and the runtime's command). */
const ALLOWED = /^(package\.json|README\.md|LICEN[CS]E(\.md|\.txt)?|CHANGELOG\.md|dist\/.+|bin\/.+\.(mjs|js|cjs))$/;
/** What it must not, even inside dist/: tests and their helpers, sources, a checkout's start bundle, build caches. */
const FORBIDDEN =
  /(\.test\.|\.case\.|\.browser\.|(^|\/)src\/|\.tsx?$(?<!\.d\.ts)|^dist\/(bundle|bench-bundle)\/|\.tsbuildinfo$|\.v8-cache$)/;

describe('the publish fields of every public package', () => {
  it('found the packages', () => {
    expect(published.length).toBeGreaterThan(20);
    expect(published.map(({ manifest }) => manifest.name)).toContain('@aalis/runtime');
  });

  it.each(published.map(({ dir, manifest }) => [manifest.name, dir, manifest] as const))(
    '%s has a version, a description, a licence, exports, files, engines and a README',
    (_name, dir, manifest) => {
      expect(manifest.version, 'version').toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
      expect(manifest.description, 'description').toBeTruthy();
      expect(manifest.license, 'license').toBe('MIT');
      expect(manifest.exports ?? manifest.bin, 'exports (or bin for a command)').toBeTruthy();
      expect(manifest.files, 'files').toEqual(expect.arrayContaining([expect.stringMatching(/^(dist|bin)/)]));
      expect(manifest.engines?.node, 'engines.node').toBe(NODE_RANGE);
      expect(existsSync(join(dir, 'README.md')), 'README.md').toBe(true);
      // As npm writes a command's path (`bin/x.mjs`, not `./bin/x.mjs`): else `npm publish` "corrects" the manifest
      // with a warning that says the command was removed.
      for (const target of Object.values(
        typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {}),
      )) {
        expect(target, 'bin path').toMatch(/^(?!\.\/)[\w./-]+$/);
      }
    },
  );

  it('gives each product one version, and pins workspace dependencies to it', () => {
    const versions = new Map<string, Set<string>>();
    for (const { manifest } of published) {
      const product = productOf(manifest.name);
      expect(product, `${manifest.name} belongs to no product`).toBeDefined();
      versions.set(product!, (versions.get(product!) ?? new Set()).add(manifest.version!));
    }
    expect([...versions.get('aalis')!]).toHaveLength(1);
    expect([...(versions.get('pling') ?? new Set(['-']))]).toHaveLength(1);
    const problems: string[] = [];
    for (const { manifest } of published) {
      for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
        const workspace = byName.get(dependency);
        if (!workspace) continue;
        if (workspace.private) problems.push(`${manifest.name} depends on the private ${dependency}`);
        else if (range !== workspace.version) {
          problems.push(`${manifest.name} depends on ${dependency}@${range}, not ${workspace.version}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('moves each product together in the changesets configuration', () => {
    const config = JSON.parse(readFileSync(join(root, '.changeset', 'config.json'), 'utf8')) as {
      fixed: string[][];
      privatePackages?: { version?: boolean; tag?: boolean };
    };
    const groupOf = (name: string) =>
      config.fixed.findIndex((group) =>
        group.some((pattern) => (pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name)),
      );
    for (const product of ['aalis', 'pling'] as const) {
      const groups = new Set(
        published
          .filter(({ manifest }) => productOf(manifest.name) === product)
          .map(({ manifest }) => groupOf(manifest.name)),
      );
      expect([...groups], product).toHaveLength(1);
      expect([...groups][0], product).toBeGreaterThanOrEqual(0);
    }
    expect(config.privatePackages).toEqual({ version: false, tag: false });
  });
});

describe('npm pack of every public package', () => {
  let packs: Array<{ name: string; files: Array<{ path: string }> }> = [];
  beforeAll(async () => {
    // One npm for all workspaces (one per package took over a minute); no lifecycle scripts, only the listing.
    const { stdout } = await promisify(execFile)(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts', '--workspaces'],
      { cwd: root, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_loglevel: 'error' } },
    );
    packs = JSON.parse(stdout);
  }, 120_000);

  it.each(published.map(({ manifest }) => [manifest.name] as const))(
    '%s packs only its manifest, README, licence and built files',
    (name) => {
      const pack = packs.find((entry) => entry.name === name);
      expect(pack, `npm pack listed ${name}`).toBeDefined();
      const files = pack!.files.map((file) => file.path);
      expect(files).toContain('package.json');
      expect(files).toContain('README.md');
      expect(
        files.filter((file) => !ALLOWED.test(file) || FORBIDDEN.test(file)),
        'files that do not belong in a published package',
      ).toEqual([]);
      // What the manifest points at is in the package (else it was not built: run `npm run build` first).
      const manifest = byName.get(name)!;
      for (const target of entryFiles(manifest)) expect(files, `${name} → ${target}`).toContain(target);
    },
  );
});

/** The files a manifest's exports (their default and types conditions) and bin name. */
function entryFiles(manifest: Manifest): string[] {
  const targets: string[] = [];
  const visit = (value: unknown, key?: string) => {
    if (typeof value === 'string') {
      if (key !== 'source' && !value.includes('*')) targets.push(value.replace(/^\.\//, ''));
    } else if (value && typeof value === 'object') {
      for (const [condition, inner] of Object.entries(value)) visit(inner, condition);
    }
  };
  visit(manifest.exports);
  visit(manifest.bin);
  return targets;
}
