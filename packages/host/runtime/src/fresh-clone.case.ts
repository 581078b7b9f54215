// What a new user does first, as the README says it: a fresh clone of this repository (its committed HEAD, nothing
// built), `npm install && npm start` in one shell, the printed login link opened in Chromium, one message sent in the
// WebUI and the offline model's streamed reply read on the page. Used by the end-to-end test (which checks each step)
// and by `npm run bench first-contact` (which prints how long each step took).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@plingjs/browser-testing';
import { childEnv, waitFor } from './spawn-aalis.case.js';

/** The repository this file is in: what is cloned. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** Exactly the README's first command. */
export const README_COMMAND = 'npm install && npm start';
const LINK = /http:\/\/127\.0\.0\.1:\d+\/\?token=[^\s"'<>]+/;

export interface FreshCloneRun {
  /** The shell's standard output and error so far (npm's, then the aalis command's). */
  stdout(): string;
  stderr(): string;
  /** Milliseconds from the start of `git clone` to each step. */
  times: { cloned?: number; installed?: number; link?: number; page?: number; reply?: number };
  /** The reply's text as the page shows it. */
  reply?: string;
  /** Stops the command (its whole process group) and the browser, and removes the clone. */
  stop(): Promise<void>;
}

/**
 * The environment a person's shell would give the command: the test's own variables that would change what npm or
 * Aalis do (those of the `npm test` running this, AALIS_*, Node options of the test runner) left out. npm reads
 * package metadata from its cache when it has it (prefer-offline: the same packages, no registry round trip for each)
 * and does not ask the registry for an audit; AALIS_WEBUI_PORT=0 takes a free port, since other tests run beside.
 */
const KEPT_NPM_SETTINGS = new Set([
  'npm_config_prefer_offline',
  'npm_config_audit',
  'npm_config_fund',
  'npm_config_update_notifier',
  // Where this machine's npm cache and registry are, when the npm running the tests was told.
  'npm_config_cache',
  'npm_config_registry',
]);

function commandEnv(): NodeJS.ProcessEnv {
  const env = childEnv({
    AALIS_WEBUI_PORT: '0',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  });
  for (const key of Object.keys(env)) {
    if (
      (key.startsWith('npm_') && !key.startsWith('npm_config_')) ||
      (key.startsWith('npm_config_') && !KEPT_NPM_SETTINGS.has(key)) ||
      key.startsWith('VITEST') ||
      key === 'NODE_OPTIONS' ||
      key === 'INIT_CWD'
    ) {
      delete env[key];
    }
  }
  return env;
}

/**
 * Where the clone goes: memory (/dev/shm) when it is a tmpfs that may hold programs, else the temp directory. A clone
 * with its node_modules is some 650 MB in 31,000 files; on this machine's disk (ext4 mounted with discard) removing
 * them took 94 s, longer than the install, and the install's writes compete with every other test for the disk.
 */
export function scratchDirectory(): string {
  try {
    const shm = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find((fields) => fields[1] === '/dev/shm');
    if (shm?.[2] === 'tmpfs' && !shm[3]?.split(',').includes('noexec')) {
      accessSync('/dev/shm', constants.W_OK);
      return '/dev/shm';
    }
  } catch {
    // Not Linux, or /dev/shm cannot be written: the temp directory.
  }
  return tmpdir();
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // The group has exited already.
  }
}

/**
 * Runs the first contact up to the reply; `message` is what is typed in the composer. Throws (after stopping what it
 * started) with the command's output when a step does not happen in time.
 */
export async function firstContact({
  message,
  installTimeoutMs,
  replyTimeoutMs = 60_000,
}: {
  message: string;
  installTimeoutMs: number;
  replyTimeoutMs?: number;
}): Promise<FreshCloneRun> {
  const started = Date.now();
  const since = () => Date.now() - started;
  const parent = mkdtempSync(join(scratchDirectory(), 'aalis-fresh-clone-'));
  const dir = join(parent, 'aalis');
  let out = '';
  let err = '';
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  const run: FreshCloneRun = {
    stdout: () => out,
    stderr: () => err,
    times: {},
    async stop() {
      await browser?.close().catch(() => undefined);
      if (child && child.exitCode === null && child.signalCode === null) {
        stopGroup(child, 'SIGTERM');
        const late = setTimeout(() => child && stopGroup(child, 'SIGKILL'), 15_000);
        await exited;
        clearTimeout(late);
      }
      rmSync(parent, { recursive: true, force: true, maxRetries: 3 });
    },
  };
  try {
    execFileSync('git', ['clone', '--quiet', REPOSITORY_ROOT, dir], { stdio: 'pipe' });
    run.times.cloned = since();
    // One shell, as a person types it; its own process group, so that stopping it stops npm and the command under it.
    // Standard input stays open (a person at the terminal): the chat keeps running until it is stopped.
    child = spawn('sh', ['-c', README_COMMAND], { cwd: dir, env: commandEnv(), stdio: 'pipe', detached: true });
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      // npm prints the script line when it starts `npm start`: the install is over.
      if (run.times.installed === undefined && out.includes('> node scripts/start.mjs')) run.times.installed = since();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    const running = child;
    exited = new Promise((resolve) => running.on('close', resolve));
    const link = await waitFor(() => LINK.exec(out)?.[0] ?? (running.exitCode !== null ? 'exited' : false), {
      timeoutMs: installTimeoutMs,
      what: () => `the login link from "${README_COMMAND}"\nstdout: ${out.slice(-4000)}\nstderr: ${err.slice(-4000)}`,
    });
    if (link === 'exited') throw new Error(`"${README_COMMAND}" exited (${running.exitCode}):\n${out}\n${err}`);
    run.times.link = since();
    browser = await launchChromium();
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    await page.goto(link);
    const composer = page.getByTestId('composer-text');
    await page.getByTestId('sessions').waitFor({ timeout: replyTimeoutMs });
    // A page that does not open a conversation by itself offers a new one.
    if (!(await composer.isVisible())) await page.getByTestId('new-session').click();
    await composer.waitFor({ timeout: replyTimeoutMs });
    run.times.page = since();
    await composer.fill(message);
    await composer.press('Enter');
    const reply = page.getByTestId('reply').last();
    run.reply = await waitFor(
      async () => {
        const text = (await reply.count()) > 0 ? await reply.textContent() : null;
        return text?.includes(message) ? text : false;
      },
      {
        timeoutMs: replyTimeoutMs,
        what: () => `the reply on the page\nstdout: ${out.slice(-2000)}\nstderr: ${err.slice(-2000)}`,
      },
    );
    run.times.reply = since();
    return run;
  } catch (error) {
    await run.stop();
    throw error;
  }
}
