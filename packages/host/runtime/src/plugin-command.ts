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
import { isOptionalPlugin } from '@aalis/optional-plugins';
import { entryFile, findInstalled, isPluginPackage } from './installed-plugins.js';
import './plugin-command-texts.js';

export interface PluginCommandIo {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  locale: Locale;
}

/** Where an add or remove is: npm's own phases (read from its `--timing` lines), then the checks, or the rollback. */
export type PluginChangePhase = 'resolving' | 'fetching' | 'building' | 'checking' | 'rolling-back';

export interface PluginChangeOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  locale: Locale;
  /** npm's phases and how many packages it has unpacked: never its raw output (paths, registry tokens). */
  onProgress?: (progress: { phase: PluginChangePhase; packages: number }) => void;
  /** What this change says as it goes (installing…, added…), for a terminal. */
  onText?: (text: TextRef) => void;
  /** npm's raw output, for a terminal (the console passes nothing). */
  onOutput?: (chunk: Buffer) => void;
  /** Each npm run is stopped after this long (default 10 minutes): the change fails and is rolled back. */
  timeoutMs?: number;
  /** Each npm run is stopped once it wrote this much (default 4 MiB): the change fails and is rolled back. */
  maxOutputBytes?: number;
  /** Stops the change (the host is shutting down): npm is stopped, and what it changed rolled back. */
  signal?: AbortSignal;
}

export type PluginChangeFailure =
  | 'busy'
  | 'no-project'
  | 'not-installed'
  | 'npm-failed'
  | 'not-plugin'
  | 'incompatible'
  | 'load-failed'
  | 'not-definition'
  | 'timeout'
  | 'output-too-large'
  | 'aborted';

export type PluginChangeResult =
  | { ok: true; name: string; version?: string; message: TextRef }
  | {
      ok: false;
      code: PluginChangeFailure;
      message: TextRef;
      /** Whether the three files were put back (false: nothing had been touched — busy, no project, not installed). */
      rolledBack: boolean;
      /** The rollback's own outcome when there was one: ok, or npm install failed (the files are restored still). */
      rollback?: TextRef;
      rollbackOk?: boolean;
    };

/** The files an install may change that decide what the deployment runs. */
export const KEPT_FILES = ['package.json', 'package-lock.json', join('node_modules', '.package-lock.json')];

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

class PluginCommandError extends Error {
  constructor(
    readonly code: PluginChangeFailure,
    readonly text: TextRef,
  ) {
    super(text.key);
  }
}

type NpmRun = {
  code: number;
  stopped?: 'timeout' | 'output-too-large' | 'aborted';
  /** npm's error code (E404, ERESOLVE …) from its `npm error code` line: says why without quoting npm. */
  npmCode?: string;
};

/** npm error codes with a sentence of their own (others are named as they are). */
const EXPLAINED_NPM_CODES = new Set(['E404', 'ETARGET', 'ERESOLVE', 'EINTEGRITY', 'ENOTFOUND', 'ECONNREFUSED']);

/**
 * Runs npm bounded in time and output. With `--timing` npm reports each phase as it completes: the tree resolved
 * (idealTree), each package unpacked (reifyNode:…), all unpacked (reify:unpack) — turned into progress; those lines
 * are not passed on as output.
 */
function npm(args: string[], options: PluginChangeOptions, phases = false): Promise<NpmRun> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return new Promise((resolve) => {
    // The loglevel is named: started under `npm run --silent` (or any npm_config_loglevel), npm would inherit it and
    // print neither its timing lines nor its `npm error code` line, and the progress and the reason would be lost.
    const flags = phases ? ['--loglevel=notice', '--timing'] : ['--loglevel=notice'];
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', [...args, ...flags], {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stopped: NpmRun['stopped'];
    let written = 0;
    let packages = 0;
    let pending = '';
    let npmCode: string | undefined;
    const stop = (why: NonNullable<NpmRun['stopped']>) => {
      if (stopped) return;
      stopped = why;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const abort = () => stop('aborted');
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
    const line = (text: string) => {
      const timing = /^npm timing (\S+) Completed/.exec(text);
      npmCode ??= /^npm (?:error|ERR!) code (E[A-Z0-9]{2,20})\b/.exec(text)?.[1];
      if (!timing) {
        options.onOutput?.(Buffer.from(`${text}\n`));
        return;
      }
      const phase = timing[1]!;
      if (phase === 'idealTree') options.onProgress?.({ phase: 'fetching', packages });
      else if (phase.startsWith('reifyNode:')) options.onProgress?.({ phase: 'fetching', packages: ++packages });
      else if (phase === 'reify:unpack') options.onProgress?.({ phase: 'building', packages });
    };
    const take = (chunk: Buffer) => {
      written += chunk.length;
      if (written > maxOutputBytes) return stop('output-too-large');
      pending += chunk.toString();
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        line(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      resolve({ code: 127 });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      if (pending) line(pending);
      resolve({ code: code ?? 1, ...(stopped ? { stopped } : {}), ...(npmCode ? { npmCode } : {}) });
    });
  });
}

/** Why an npm run that did not succeed failed, as the error a change ends with. */
function npmFailure(command: string, run: NpmRun, options: PluginChangeOptions): PluginCommandError {
  if (run.stopped === 'timeout') {
    const minutes = Math.round(((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 60_000) * 10) / 10;
    return new PluginCommandError('timeout', textRef('runtime.plugin.npmTimeout', { command, minutes }));
  }
  if (run.stopped === 'aborted') {
    return new PluginCommandError('aborted', textRef('runtime.plugin.aborted', { command }));
  }
  if (run.stopped === 'output-too-large') {
    const kib = Math.round((options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES) / 1024);
    return new PluginCommandError('output-too-large', textRef('runtime.plugin.npmOutputTooLarge', { command, kib }));
  }
  if (run.npmCode) {
    const why = EXPLAINED_NPM_CODES.has(run.npmCode)
      ? `runtime.plugin.npmCode.${run.npmCode}`
      : 'runtime.plugin.npmCode';
    return new PluginCommandError(
      'npm-failed',
      textRef('runtime.plugin.npmFailedCode', {
        command,
        code: run.code,
        npmCode: run.npmCode,
        why: translate(textRef(why, { npmCode: run.npmCode }), options.locale),
      }),
    );
  }
  return new PluginCommandError('npm-failed', textRef('runtime.plugin.npmFailed', { command, code: run.code }));
}

/** Imports the plugin in a child process (a crash or a hang cannot take this one along) and checks its export. */
function loadCheck(
  file: string,
  io: Pick<PluginChangeOptions, 'cwd' | 'env'>,
): Promise<{ ok: true } | { ok: false; reason: string }> {
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

/** `aalis plugin add|remove` for a terminal: changePlugin with its texts and npm's output written out; exit code. */
export async function runPluginCommand(action: 'add' | 'remove', target: string, io: PluginCommandIo): Promise<number> {
  const say = (text: TextRef, stream: NodeJS.WritableStream) => stream.write(`${translate(text, io.locale)}\n`);
  const result = await changePlugin(action, target, {
    cwd: io.cwd,
    env: io.env,
    locale: io.locale,
    onText: (text) => say(text, io.stdout),
    // npm's own output goes to standard error: standard output stays this command's.
    onOutput: (chunk) => io.stderr.write(chunk),
  });
  if (result.ok) return 0;
  say(result.message, io.stderr);
  if (result.rollback) say(result.rollback, io.stderr);
  return result.code === 'no-project' || result.code === 'not-installed' ? 2 : 1;
}

/**
 * Adds (npm install, then the checks) or removes (npm uninstall) a plugin in the deployment at `options.cwd`, one at
 * a time (a lock directory). Any failure after something changed puts package.json, package-lock.json and
 * node_modules/.package-lock.json back byte for byte and node_modules with them.
 */
export async function changePlugin(
  action: 'add' | 'remove',
  target: string,
  options: PluginChangeOptions,
): Promise<PluginChangeResult> {
  if (!existsSync(join(options.cwd, 'package.json'))) {
    return {
      ok: false,
      code: 'no-project',
      message: textRef('runtime.plugin.noProject', { dir: options.cwd }),
      rolledBack: false,
    };
  }
  if (action === 'remove' && dependencies(options.cwd)[target] === undefined) {
    return {
      ok: false,
      code: 'not-installed',
      message: textRef('runtime.plugin.notInstalled', { name: target }),
      rolledBack: false,
    };
  }
  const lock = join(options.cwd, PLUGIN_LOCK);
  try {
    mkdirSync(lock);
  } catch {
    return { ok: false, code: 'busy', message: textRef('runtime.plugin.busy', { lock }), rolledBack: false };
  }
  const kept = KEPT_FILES.map((file) => {
    const path = join(options.cwd, file);
    return { path, content: existsSync(path) ? readFileSync(path) : undefined };
  });
  const restore = () => {
    for (const { path, content } of kept) {
      if (content === undefined) rmSync(path, { force: true });
      else writeFileSync(path, content);
    }
  };
  try {
    const done = action === 'add' ? await add(target, options) : await remove(target, options);
    return { ok: true, ...done };
  } catch (error) {
    if (!(error instanceof PluginCommandError)) throw error;
    options.onProgress?.({ phase: 'rolling-back', packages: 0 });
    restore();
    // node_modules back to what the restored lock file says (the added package and its dependencies go), then the
    // kept files again, byte for byte, whatever npm wrote meanwhile.
    // Not stopped by the signal: a shutdown waits for the deployment to be whole again (bounded by the timeout).
    const { signal: _stopping, ...rollback } = options;
    const run = await npm(['install', '--no-audit', '--no-fund'], rollback);
    restore();
    return {
      ok: false,
      code: error.code,
      message: error.text,
      rolledBack: true,
      rollbackOk: run.code === 0 && !run.stopped,
      rollback:
        run.code === 0 && !run.stopped
          ? textRef('runtime.plugin.rolledBack')
          : textRef('runtime.plugin.rollbackFailed', { code: run.stopped ?? run.code, dir: options.cwd }),
    };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The lock directory an add or remove holds in the deployment. */
export const PLUGIN_LOCK = '.aalis-plugin.lock';

function dependencies(cwd: string): Record<string, string> {
  return (
    (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> })
      .dependencies ?? {}
  );
}

async function add(
  spec: string,
  options: PluginChangeOptions,
): Promise<{ name: string; version?: string; message: TextRef }> {
  const before = dependencies(options.cwd);
  options.onText?.(textRef('runtime.plugin.installing', { spec }));
  options.onProgress?.({ phase: 'resolving', packages: 0 });
  // An optional first-party plugin named bare is the one of the deployment's own release (its registry's latest may be
  // another): the same version as the runtime installed here.
  const release = isOptionalPlugin(spec) ? findInstalled(options.cwd, '@aalis/runtime')?.manifest.version : undefined;
  const wanted = release ? `${spec}@${release}` : spec;
  const run = await npm(['install', wanted, '--save', '--no-audit', '--no-fund'], options, true);
  if (run.code !== 0 || run.stopped) throw npmFailure('install', run, options);
  options.onProgress?.({ phase: 'checking', packages: 0 });
  // The package the install added (or changed): its name, whatever form the spec had (a version, a tag, a tarball).
  const after = dependencies(options.cwd);
  const name = Object.keys(after).find((key) => before[key] !== after[key]) ?? spec;
  const installed = findInstalled(options.cwd, name);
  if (!installed || !isPluginPackage(installed.manifest)) {
    throw new PluginCommandError('not-plugin', textRef('runtime.plugin.notPlugin', { name }));
  }
  // A first-party plugin depends on the core of its release; a third-party one states the range it works with.
  const range =
    installed.manifest.peerDependencies?.['@aalis/core'] ?? installed.manifest.dependencies?.['@aalis/core'] ?? '—';
  const core = findInstalled(installed.dir, '@aalis/core');
  // npm's own check of the peer range against the core it resolved (it refuses an unsatisfiable one on install
  // already, unless told to ignore peers): `npm ls` exits non-zero and names the problem.
  const problem = await npmProblem(name, options);
  if (!core || problem !== undefined) {
    throw new PluginCommandError(
      'incompatible',
      textRef('runtime.plugin.incompatible', {
        name,
        range,
        installed: core?.manifest.version ?? '—',
        problem: problem ?? '@aalis/core is not installed',
      }),
    );
  }
  const loaded = await loadCheck(entryFile(installed), options);
  if (!loaded.ok) {
    throw loaded.reason === 'not-definition'
      ? new PluginCommandError('not-definition', textRef('runtime.plugin.notDefinition', { name }))
      : new PluginCommandError('load-failed', textRef('runtime.plugin.loadFailed', { name, reason: loaded.reason }));
  }
  const version = installed.manifest.version;
  const message = textRef('runtime.plugin.added', { name, version: version ?? '' });
  options.onText?.(message);
  return { name, ...(version ? { version } : {}), message };
}

function npmProblem(name: string, io: Pick<PluginChangeOptions, 'cwd' | 'env'>): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ls', name, '@aalis/core', '--json'], {
      cwd: io.cwd,
      env: io.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 120_000,
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      // The tree of one package and the core: far below this; more is not read.
      if (out.length < 1024 * 1024) out += chunk.toString();
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

async function remove(name: string, options: PluginChangeOptions): Promise<{ name: string; message: TextRef }> {
  options.onText?.(textRef('runtime.plugin.removing', { name }));
  options.onProgress?.({ phase: 'resolving', packages: 0 });
  const run = await npm(['uninstall', name, '--no-audit', '--no-fund'], options, true);
  if (run.code !== 0 || run.stopped) throw npmFailure('uninstall', run, options);
  const message = textRef('runtime.plugin.removed', { name });
  options.onText?.(message);
  return { name, message };
}
