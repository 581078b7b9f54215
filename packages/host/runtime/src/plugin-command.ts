// `aalis plugin add <npm name>` / `aalis plugin remove <name>` in a deployment's directory. One at a time (a lock
// directory); before anything changes, package.json, package-lock.json and node_modules/.package-lock.json are kept;
// an add is checked after npm installed it — the package declares an @aalis/core range, npm finds the deployment's
// core within it, and it loads (in a child process) to a plugin definition — and on any failure those three files are
// put back byte for byte and node_modules is made to match them again (npm install), so the deployment is as it was.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Locale, type TextRef, textRef, translate } from '@aalis/core';
import { entryFile, findInstalled, isThirdPartyPlugin } from './installed-plugins.js';
import './plugin-command-texts.js';

export interface PluginCommandIo {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  locale: Locale;
}

/** The files an install may change that decide what the deployment runs. */
export const KEPT_FILES = ['package.json', 'package-lock.json', join('node_modules', '.package-lock.json')];

class PluginCommandError extends Error {
  constructor(readonly text: TextRef) {
    super(text.key);
  }
}

function npm(args: string[], io: PluginCommandIo): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
      cwd: io.cwd,
      env: io.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // npm's own output goes to standard error: standard output stays this command's.
    child.stdout.on('data', (chunk: Buffer) => io.stderr.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => io.stderr.write(chunk));
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Imports the plugin in a child process (a crash or a hang cannot take this one along) and checks its export. */
function loadCheck(file: string, io: PluginCommandIo): Promise<{ ok: true } | { ok: false; reason: string }> {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)});
const d = m.default;
if (!d || typeof d.name !== 'string' || typeof d.apply !== 'function') { process.stdout.write('not-definition'); process.exit(3); }`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: io.cwd,
      env: io.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('close', (code) => {
      if (code === 0) resolve({ ok: true });
      else if (out.includes('not-definition')) resolve({ ok: false, reason: 'not-definition' });
      else {
        const line = err.split('\n').find((text) => /Error/.test(text)) ?? err.trim().split('\n')[0] ?? `exit ${code}`;
        resolve({ ok: false, reason: line.trim().slice(0, 500) });
      }
    });
  });
}

export async function runPluginCommand(action: 'add' | 'remove', target: string, io: PluginCommandIo): Promise<number> {
  const say = (text: TextRef, stream: NodeJS.WritableStream = io.stdout) =>
    stream.write(`${translate(text, io.locale)}\n`);
  if (!existsSync(join(io.cwd, 'package.json'))) {
    say(textRef('runtime.plugin.noProject', { dir: io.cwd }), io.stderr);
    return 2;
  }
  if (action === 'remove' && dependencies(io)[target] === undefined) {
    say(textRef('runtime.plugin.notInstalled', { name: target }), io.stderr);
    return 2;
  }
  const lock = join(io.cwd, '.aalis-plugin.lock');
  try {
    mkdirSync(lock);
  } catch {
    say(textRef('runtime.plugin.busy', { lock }), io.stderr);
    return 1;
  }
  const kept = KEPT_FILES.map((file) => {
    const path = join(io.cwd, file);
    return { path, content: existsSync(path) ? readFileSync(path) : undefined };
  });
  const restore = () => {
    for (const { path, content } of kept) {
      if (content === undefined) rmSync(path, { force: true });
      else writeFileSync(path, content);
    }
  };
  try {
    if (action === 'add') await add(target, io, say);
    else await remove(target, io, say);
    return 0;
  } catch (error) {
    if (!(error instanceof PluginCommandError)) throw error;
    say(error.text, io.stderr);
    restore();
    // node_modules back to what the restored lock file says (the added package and its dependencies go), then the
    // kept files again, byte for byte, whatever npm wrote meanwhile.
    const code = await npm(['install', '--no-audit', '--no-fund'], io);
    restore();
    say(
      code === 0
        ? textRef('runtime.plugin.rolledBack')
        : textRef('runtime.plugin.rollbackFailed', { code, dir: io.cwd }),
      io.stderr,
    );
    return 1;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function dependencies(io: PluginCommandIo): Record<string, string> {
  return (
    (JSON.parse(readFileSync(join(io.cwd, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> })
      .dependencies ?? {}
  );
}

async function add(spec: string, io: PluginCommandIo, say: (text: TextRef) => void): Promise<void> {
  const before = dependencies(io);
  say(textRef('runtime.plugin.installing', { spec }));
  const code = await npm(['install', spec, '--save', '--no-audit', '--no-fund'], io);
  if (code !== 0) throw new PluginCommandError(textRef('runtime.plugin.npmFailed', { command: 'install', code }));
  // The package the install added (or changed): its name, whatever form the spec had (a version, a tag, a tarball).
  const after = dependencies(io);
  const name = Object.keys(after).find((key) => before[key] !== after[key]) ?? spec;
  const installed = findInstalled(io.cwd, name);
  if (!installed || !isThirdPartyPlugin(installed.manifest)) {
    throw new PluginCommandError(textRef('runtime.plugin.notPlugin', { name }));
  }
  const range = installed.manifest.peerDependencies!['@aalis/core']!;
  const core = findInstalled(installed.dir, '@aalis/core');
  // npm's own check of the peer range against the core it resolved (it refuses an unsatisfiable one on install
  // already, unless told to ignore peers): `npm ls` exits non-zero and names the problem.
  const problem = await npmProblem(name, io);
  if (!core || problem !== undefined) {
    throw new PluginCommandError(
      textRef('runtime.plugin.incompatible', {
        name,
        range,
        installed: core?.manifest.version ?? '—',
        problem: problem ?? '@aalis/core is not installed',
      }),
    );
  }
  const loaded = await loadCheck(entryFile(installed), io);
  if (!loaded.ok) {
    throw new PluginCommandError(
      loaded.reason === 'not-definition'
        ? textRef('runtime.plugin.notDefinition', { name })
        : textRef('runtime.plugin.loadFailed', { name, reason: loaded.reason }),
    );
  }
  say(textRef('runtime.plugin.added', { name, version: installed.manifest.version ?? '' }));
}

function npmProblem(name: string, io: PluginCommandIo): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ls', name, '@aalis/core', '--json'], {
      cwd: io.cwd,
      env: io.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', () => resolve('npm ls could not run'));
    child.on('close', (code) => {
      if (code === 0) return resolve(undefined);
      try {
        const problems = (JSON.parse(out) as { problems?: string[] }).problems ?? [];
        resolve(problems.join('; ') || `npm ls exited ${code}`);
      } catch {
        resolve(`npm ls exited ${code}`);
      }
    });
  });
}

async function remove(name: string, io: PluginCommandIo, say: (text: TextRef) => void): Promise<void> {
  say(textRef('runtime.plugin.removing', { name }));
  const code = await npm(['uninstall', name, '--no-audit', '--no-fund'], io);
  if (code !== 0) throw new PluginCommandError(textRef('runtime.plugin.npmFailed', { command: 'uninstall', code }));
  say(textRef('runtime.plugin.removed', { name }));
}
