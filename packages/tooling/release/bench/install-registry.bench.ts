// npm run bench install-registry [minimal|standard|full …] [--plugin <dir>] [--cold] [--parallel] — Aalis installed from a
// registry exactly as a user installs it: a local registry (Verdaccio on 127.0.0.1, storage in a temp directory,
// everything not ours through its uplink to npm's registry), every public package of this repository published to it
// (`npm publish` of the built dist/: run `npm run build` first) by a throwaway user, then in a clean directory whose
// .npmrc names only that registry:
//   - per template: `npm create aalis@latest bot-<template> -- --template <t> --yes`, `npm start` until the banner
//     gives the WebUI login link (the issue's goal: empty directory → running bot in ≤ 3 minutes), a reply from the
//     offline demo model through `aalis chat`;
//   - in the first template's deployment: a third-party plugin made with `npm create aalis-plugin@latest`, its own
//     test harness run (`npm test`), published to the same registry, `aalis plugin add`ed (the next start runs it),
//     two installs made to fail on purpose (a plugin asking for an @aalis/core it cannot have, a plugin that throws
//     when loaded), each leaving package.json, package-lock.json and node_modules/.package-lock.json byte for byte as
//     before (hashed), and `aalis plugin remove`.
// Each check that fails ends the run with exit status 1 (CI runs it: see docs/decisions/install-from-registry.md).
// `--plugin <dir>` adds and removes that plugin package too (published from <dir>); `--cold` gives each template's
// create an empty npm cache of its own (every third-party package downloaded through the registry, as on a new
// machine; better-sqlite3's build is still taken from prebuild-install's cache when there is one); `--compile` (with
// --cold) leaves prebuild-install's downloads out too, so better-sqlite3 is compiled from source, as on a machine where
// no prebuilt binary downloads (this one: they come from GitHub); `--parallel` runs
// the templates' creates at the same time. Each template's row says how many packages its deployment installed.
// BENCH_TEMPLATES=minimal,full is the same as naming them.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDirectory } from '../../../host/runtime/src/fresh-clone.case.js';
import { startLocalRegistry } from '../src/local-registry.case.js';
import { publishWorkspaces } from '../src/publish-workspaces.case.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const GOAL_MS = 3 * 60_000;
const TEMPLATES = ['minimal', 'standard', 'full'] as const;
const PLUGIN = 'aalis-plugin-e2e-hello';
const args = process.argv.slice(2);
const named = args.filter((arg) => (TEMPLATES as readonly string[]).includes(arg));
const templates = named.length > 0 ? named : (process.env.BENCH_TEMPLATES ?? TEMPLATES.join(',')).split(',');
const pluginIndex = args.indexOf('--plugin');
const ownPlugin = pluginIndex >= 0 ? resolve(args[pluginIndex + 1] ?? '') : undefined;
const ownPluginNames = ownPlugin
  ? [(JSON.parse(readFileSync(join(ownPlugin, 'package.json'), 'utf8')) as { name: string }).name]
  : [];
const cold = args.includes('--cold');
const compile = cold && args.includes('--compile');
const parallel = args.includes('--parallel');

for (const file of ['host/runtime/dist/cli.js', 'host/create-aalis/dist/index.js', 'plugins/plugin-webui/dist']) {
  if (!existsSync(join(root, 'packages', file))) {
    console.error(`The packages are not built (${file} is missing): run npm run build first (npm publishes dist/).`);
    process.exit(1);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const work = mkdtempSync(join(scratchDirectory(), 'aalis-install-registry-'));
const failures: string[] = [];
let passed = 0;
function check(ok: boolean, what: string, detail = ''): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (ok) passed++;
  if (!ok) failures.push(`${what}${detail ? `\n${detail.slice(-4000)}` : ''}`);
}

/** A command to its end, its output kept (bounded: the last 4 MiB). */
function run(command: string, argv: string[], cwd: string, env: NodeJS.ProcessEnv, input?: string) {
  return new Promise<{ code: number | null; output: string; stdout: string }>((resolvePromise) => {
    const child = spawn(command, argv, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    const limit = 4 * 1024 * 1024;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString()).slice(-limit);
      output = (output + chunk.toString()).slice(-limit);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-limit);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10 * 60_000);
    child.on('error', (error) => {
      output += `\n${error.message}`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output, stdout });
    });
    child.stdin.end(input ?? '');
  });
}

/** The hashes of the files that decide what a deployment runs. */
function hashes(dir: string): string {
  return ['package.json', 'package-lock.json', join('node_modules', '.package-lock.json')]
    .map((file) => {
      const path = join(dir, file);
      return `${file}=${existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'missing'}`;
    })
    .join(' ');
}

/** `npm start` until the banner gives the login link; resolves with the time it took, then stops the bot. */
function startUntilLoginLink(
  dir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: boolean; output: string; page: { status: number; html: string } }> {
  return new Promise((resolvePromise) => {
    let page: Promise<void> | undefined;
    let pageResult = { status: 0, html: 'no login link' };
    // Its own process group: npm, the shell and the bot are stopped together.
    const child = spawn('npm', ['start'], { cwd: dir, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGINT');
      } catch {
        // already gone
      }
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 10_000);
      child.once('close', () => {
        clearTimeout(killer);
        resolvePromise({ ok, output, page: pageResult });
      });
    };
    const timer = setTimeout(() => finish(false), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const link = /WebUI login link[^\n]*?(http:\/\/\S+)/.exec(output)?.[1];
      if (link && !page) {
        // The page the link opens, served by the installed WebUI package (its built page is in the tarball).
        page = fetch(new URL('/', link))
          .then(async (response) => ({ status: response.status, html: await response.text() }))
          .catch((error: Error) => ({ status: 0, html: error.message }))
          .then((result) => {
            pageResult = result;
            finish(true);
          });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('close', () => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        resolvePromise({ ok: false, output, page: pageResult });
      }
    });
  });
}

/** Publishes a plugin package's directory as the throwaway user. */
function publishPlugin(dir: string, env: NodeJS.ProcessEnv) {
  return run('npm', ['publish', '--ignore-scripts'], dir, env);
}

function writePlugin(dir: string, name: string, range: string, body: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      description: 'made to fail an install',
      license: 'MIT',
      type: 'module',
      exports: { '.': './index.js' },
      peerDependencies: { '@aalis/core': range },
    }),
  );
  writeFileSync(join(dir, 'index.js'), body);
}

/** How many packages a deployment's install put in node_modules (npm's hidden lockfile), and their size on disk. */
function installedSize(dir: string): { packages: number; megabytes: number } {
  const hidden = join(dir, 'node_modules', '.package-lock.json');
  const entries = existsSync(hidden)
    ? Object.entries(
        (JSON.parse(readFileSync(hidden, 'utf8')) as { packages?: Record<string, { link?: boolean }> }).packages ?? {},
      )
    : [];
  const sizeOf = (path: string): number =>
    readdirSync(path, { withFileTypes: true }).reduce((total, entry) => {
      const child = join(path, entry.name);
      return total + (entry.isDirectory() ? sizeOf(child) : entry.isFile() ? statSync(child).size : 0);
    }, 0);
  return {
    packages: entries.filter(([path, entry]) => path !== '' && !entry.link).length,
    megabytes: sizeOf(join(dir, 'node_modules')) / 1e6,
  };
}

const rows: Array<{
  template: string;
  create: number;
  running: number;
  reply: number;
  packages: number;
  megabytes: number;
}> = [];
let registryStop: (() => Promise<void>) | undefined;
try {
  let started = Date.now();
  const registry = await startLocalRegistry(join(work, 'registry'), {
    // --plugin's package is served from here too, never mixed with a package of that name on npm's registry.
    local: ['@aalis/*', '@plingjs/*', 'create-aalis', 'create-aalis-plugin', 'aalis-plugin-e2e-*', ...ownPluginNames],
  });
  registryStop = registry.stop;
  console.log(`local registry ${registry.url} answered in ${seconds(Date.now() - started)}`);
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith('AALIS_') && !key.startsWith('npm_')),
    ),
    npm_config_userconfig: registry.userconfig,
    NO_COLOR: '1',
    AALIS_WEBUI_PORT: '0',
    AALIS_LOCALE: 'en',
  };
  const prebuilds = join(process.env.npm_config_cache ?? join(homedir(), '.npm'), '_prebuilds');
  /**
   * An empty npm cache, but for prebuild-install's downloads (which a real first install makes from GitHub) unless
   * --compile: then better-sqlite3 is built from its sources.
   */
  const emptyCache = (name: string) => {
    const cache = join(work, name);
    mkdirSync(cache);
    if (!compile && existsSync(prebuilds)) cpSync(prebuilds, join(cache, '_prebuilds'), { recursive: true });
    return cache;
  };
  if (cold) env.npm_config_cache = emptyCache('npm-cache');

  started = Date.now();
  const published = await publishWorkspaces(root, env);
  const publishMs = Date.now() - started;
  console.log(`published ${published.packages.length} packages in ${seconds(publishMs)}`);
  const missing: string[] = [];
  for (const { name, version, tag } of published.packages) {
    const response = await fetch(`${registry.url}${name.replace('/', '%2f')}`);
    const packument = response.ok
      ? ((await response.json()) as { versions?: Record<string, unknown>; 'dist-tags'?: Record<string, string> })
      : {};
    if (!packument.versions?.[version] || packument['dist-tags']?.[tag] !== version) missing.push(`${name}@${version}`);
  }
  check(
    published.packages.length > 50 && missing.length === 0,
    `every public package is on the registry at its version and dist-tag (${published.packages.length})`,
    missing.join(', '),
  );
  check(published.warnings.length === 0, 'npm publish corrected nothing', published.warnings.join('\n'));
  const view = await run('npm', ['view', 'create-aalis@latest', 'version'], work, env);
  const ownVersion = (
    JSON.parse(readFileSync(join(root, 'packages/host/create-aalis/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  check(view.stdout.trim() === ownVersion, `the registry's create-aalis@latest is ${ownVersion}`, view.output);

  // The user's directory: nothing in it but an .npmrc naming the local registry.
  const clean = join(work, 'clean');
  mkdirSync(clean);
  writeFileSync(join(clean, '.npmrc'), `registry=${registry.url}\n`);

  const deploy = async (template: string) => {
    const dir = join(clean, `bot-${template}`);
    // --cold: every template's create starts from an empty cache, not from what the one before downloaded.
    const createEnv = { ...env, ...(cold ? { npm_config_cache: emptyCache(`npm-cache-${template}`) } : {}) };
    const started = Date.now();
    const create = await run(
      'npm',
      ['create', 'aalis@latest', `bot-${template}`, '--', '--template', template, '--yes', '--lang', 'en'],
      clean,
      // npm's own --yes: install create-aalis without asking (a script has no one to answer).
      { ...createEnv, npm_config_yes: 'true' },
    );
    const createMs = Date.now() - started;
    check(create.code === 0, `${template}: npm create aalis@latest exits 0 (${seconds(createMs)})`, create.output);
    if (create.code !== 0) return;
    check(!/npm warn/i.test(create.output), `${template}: the install printed no npm warning`, create.output);
    const runtime = join(dir, 'node_modules', '@aalis', 'runtime');
    const installed = existsSync(join(runtime, 'package.json'))
      ? (JSON.parse(readFileSync(join(runtime, 'package.json'), 'utf8')) as { version: string }).version
      : 'missing';
    check(installed === ownVersion, `${template}: @aalis/runtime ${ownVersion} installed from the registry`);
    check(!existsSync(join(runtime, 'src')), `${template}: the installed runtime holds no sources`);
    const resolved = readFileSync(join(dir, 'package-lock.json'), 'utf8');
    check(!resolved.includes('registry.npmjs.org'), `${template}: the lockfile names no other registry`);

    const start = await startUntilLoginLink(dir, env);
    const runningMs = Date.now() - started;
    check(start.ok, `${template}: npm start runs the bot and prints the WebUI login link`, start.output);
    check(
      start.page.status === 200 && /<script[^>]+src=/.test(start.page.html),
      `${template}: the login link's server answers with the WebUI page`,
      `${start.page.status}: ${start.page.html.slice(0, 2000)}`,
    );

    const chat = await run(
      join(dir, 'node_modules', '.bin', 'aalis'),
      ['chat'],
      dir,
      env,
      `hello from the ${template} template\n`,
    );
    check(
      chat.code === 0 && chat.stdout.includes(`hello from the ${template} template`),
      `${template}: aalis chat answers with the offline demo model`,
      chat.output,
    );
    rows.push({ template, create: createMs, running: runningMs, reply: Date.now() - started, ...installedSize(dir) });
  };
  // --parallel: the templates' creates at the same time (one npx cache: npm serialises its own writes to it).
  if (parallel) await Promise.all(templates.map(deploy));
  else for (const template of templates) await deploy(template);

  const deployment = join(clean, `bot-${templates[0]}`);
  if (existsSync(join(deployment, 'node_modules'))) {
    // A third-party plugin as its author makes it: the template, its own test harness, npm publish.
    started = Date.now();
    const made = await run('npm', ['create', 'aalis-plugin@latest', PLUGIN, '--', '--lang', 'en'], clean, {
      ...env,
      npm_config_yes: 'true',
    });
    check(made.code === 0, 'npm create aalis-plugin@latest writes a plugin package', made.output);
    const pluginDir = join(clean, PLUGIN);
    const tested = await run('npm', ['install'], pluginDir, env);
    const harness = tested.code === 0 ? await run('npm', ['test'], pluginDir, env) : tested;
    check(
      harness.code === 0,
      "the plugin's own test harness passes against the registry's @aalis/core",
      harness.output,
    );
    rmSync(join(pluginDir, 'node_modules'), { recursive: true, force: true });
    const pluginPublished = await publishPlugin(pluginDir, env);
    check(pluginPublished.code === 0, `${PLUGIN} published to the local registry`, pluginPublished.output);
    const pluginMs = Date.now() - started;

    const aalis = join(deployment, 'node_modules', '.bin', 'aalis');
    const plugins = [PLUGIN];
    if (ownPlugin) {
      const own = await publishPlugin(ownPlugin, env);
      check(own.code === 0, `the plugin in ${ownPlugin} published to the local registry`, own.output);
      plugins.push(...ownPluginNames);
    }
    started = Date.now();
    for (const name of plugins) {
      const added = await run(aalis, ['plugin', 'add', name], deployment, env);
      const manifest = JSON.parse(readFileSync(join(deployment, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      check(
        added.code === 0 && manifest.dependencies[name] !== undefined,
        `aalis plugin add ${name} installs it as a dependency`,
        added.output,
      );
    }
    const addMs = Date.now() - started;
    // The next start runs it: the plugin template logs "<name> is running" when it starts.
    rmSync(join(deployment, 'data', 'logs'), { recursive: true, force: true });
    const withPlugin = await run(aalis, ['chat'], deployment, { ...env, AALIS_LOG_LEVEL: 'info' }, 'hello plugin\n');
    const logDir = join(deployment, 'data', 'logs');
    const logs = existsSync(logDir)
      ? readdirSync(logDir)
          .map((file) => readFileSync(join(logDir, file), 'utf8'))
          .join('\n')
      : '';
    check(
      withPlugin.code === 0 && logs.includes(`${PLUGIN} is running`),
      `the next start of the bot runs ${PLUGIN}`,
      `${withPlugin.output}\n${logs}`,
    );

    // Installs made to fail on purpose: the deployment stays exactly as it was.
    writePlugin(
      join(work, 'broken-range'),
      'aalis-plugin-e2e-wrong-core',
      '^99.0.0',
      "export default { name: 'aalis-plugin-e2e-wrong-core', apply() {} };\n",
    );
    writePlugin(
      join(work, 'broken-load'),
      'aalis-plugin-e2e-throws',
      `^${ownVersion}`,
      "throw new Error('this plugin fails when it is loaded');\n",
    );
    started = Date.now();
    for (const [source, name, reason] of [
      ['broken-range', 'aalis-plugin-e2e-wrong-core', 'needs @aalis/core ^99.0.0'],
      ['broken-load', 'aalis-plugin-e2e-throws', 'throws when loaded'],
    ] as const) {
      const publishedBroken = await publishPlugin(join(work, source), env);
      check(publishedBroken.code === 0, `${name} published`, publishedBroken.output);
      const before = hashes(deployment);
      const failed = await run(aalis, ['plugin', 'add', name], deployment, env);
      const after = hashes(deployment);
      check(failed.code === 1, `aalis plugin add ${name} (${reason}) fails with exit status 1`, failed.output);
      check(
        after === before,
        `…and leaves package.json, package-lock.json and node_modules/.package-lock.json byte for byte as before`,
        `before: ${before}\nafter:  ${after}\n${failed.output}`,
      );
      check(!existsSync(join(deployment, 'node_modules', name)), `…and ${name} is not in node_modules`);
    }
    const failMs = Date.now() - started;

    started = Date.now();
    for (const name of plugins) {
      const removed = await run(aalis, ['plugin', 'remove', name], deployment, env);
      const manifest = JSON.parse(readFileSync(join(deployment, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      check(
        removed.code === 0 &&
          manifest.dependencies[name] === undefined &&
          !existsSync(join(deployment, 'node_modules', name)),
        `aalis plugin remove ${name} takes it out of package.json and node_modules`,
        removed.output,
      );
    }
    const removeMs = Date.now() - started;

    // A first-party optional plugin the template did not install (minimal has no media plugin): a section for it is
    // a coded configuration error naming the command, `aalis plugin add` installs the release's own version, the bot
    // then runs with it, and `aalis plugin remove` takes it out again.
    started = Date.now();
    const optional = '@aalis/plugin-media';
    const configFile = join(deployment, 'aalis.config.yaml');
    const configBefore = readFileSync(configFile, 'utf8');
    const installedBefore = (
      JSON.parse(readFileSync(join(deployment, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    ).dependencies;
    if (installedBefore[optional] === undefined) {
      writeFileSync(configFile, configBefore.replace(/^plugins:.*$/m, 'plugins:\n  media: {}'));
      const refused = await run(aalis, ['chat'], deployment, env, 'hello media\n');
      check(
        refused.code === 2 &&
          refused.output.includes('AALIS_RUNTIME_PLUGIN_NOT_INSTALLED') &&
          refused.output.includes(`aalis plugin add ${optional}`),
        `a media section without ${optional} installed: exit 2, AALIS_RUNTIME_PLUGIN_NOT_INSTALLED and the command`,
        refused.output,
      );
      const added = await run(aalis, ['plugin', 'add', optional], deployment, env);
      const manifest = JSON.parse(readFileSync(join(deployment, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      check(
        added.code === 0 && manifest.dependencies[optional] === `^${ownVersion}`,
        `aalis plugin add ${optional} installs the release's own version (${ownVersion})`,
        `${JSON.stringify(manifest.dependencies)}\n${added.output}`,
      );
      const withMedia = await run(aalis, ['chat'], deployment, env, 'hello media\n');
      check(
        withMedia.code === 0 && withMedia.stdout.includes('hello media'),
        `the bot runs with its media section once ${optional} is added`,
        withMedia.output,
      );
      const removed = await run(aalis, ['plugin', 'remove', optional], deployment, env);
      check(
        removed.code === 0 && !existsSync(join(deployment, 'node_modules', ...optional.split('/'))),
        `aalis plugin remove ${optional} takes it out of node_modules`,
        removed.output,
      );
      writeFileSync(configFile, configBefore);
    }
    const optionalMs = Date.now() - started;
    console.log(`first-party optional plugin refused, added, run and removed ${seconds(optionalMs)}`);
    console.log(
      `plugin: made, tested and published ${seconds(pluginMs)}; added ${seconds(addMs)}; two failed adds rolled back ${seconds(failMs)}; removed ${seconds(removeMs)}`,
    );
  }

  const baseline = rows.find((row) => row.template === 'minimal') ?? rows[0];
  const cache = compile
    ? 'empty, better-sqlite3 compiled from source (--cold --compile)'
    : cold
      ? 'empty but for prebuild-install’s downloads (--cold)'
      : 'this machine’s';
  console.log(`\nnpm's cache: ${cache}; published in ${seconds(publishMs)}`);
  console.log(
    '| template | packages installed | node_modules | npm create aalis@latest (files + install) | + npm start → login link | first reply (aalis chat) | running × minimal | of the 3-minute goal |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  rows.sort((a, b) => templates.indexOf(a.template) - templates.indexOf(b.template));
  for (const row of rows) {
    console.log(
      `| ${row.template} | ${row.packages} | ${row.megabytes.toFixed(0)} MB | ${seconds(row.create)} | ${seconds(row.running)} | ${seconds(row.reply)} | ${baseline ? (row.running / baseline.running).toFixed(2) : '—'}× | ${((row.running / GOAL_MS) * 100).toFixed(0)} % |`,
    );
  }
  console.log(
    `The first template's install (${templates[0]}) also waits for the local registry to fetch every third-party package document through its uplink; the later ones read its storage, as a user reads npm's registry.`,
  );
} catch (error) {
  failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await registryStop?.();
  rmSync(work, { recursive: true, force: true });
}
if (failures.length > 0) console.error(`\n${failures.length} check(s) failed:\n\n${failures.join('\n\n')}`);
// The closing line a CI log is read for.
console.log(`\ninstall-registry: ${passed} passed, ${failures.length} failed`);
process.exit(failures.length > 0 ? 1 : 0);
