// Test helpers: runs the real `aalis` command (bin/aalis.mjs, sources through tsx) as a child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const AALIS_BIN = fileURLToPath(new URL('../bin/aalis.mjs', import.meta.url));

export interface AalisProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) when the process has ended. */
  exited: Promise<number | string>;
}

/**
 * The environment of a child: the test's without AALIS_*, OTEL_* and ANTHROPIC_* (a developer's Claude key or trace
 * backend would change what the child runs) and TMUX variables, colour off, plus `env`.
 */
export function childEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !key.startsWith('AALIS_') &&
        !key.startsWith('OTEL_') &&
        !key.startsWith('ANTHROPIC_') &&
        key !== 'TMUX' &&
        key !== 'TMUX_PANE',
    ),
  );
  return { ...base, NO_COLOR: '1', ...env };
}

export function spawnAalis({
  cwd,
  args,
  env = {},
}: {
  cwd: string;
  args: string[];
  env?: Record<string, string>;
}): AalisProcess {
  const child = spawn(process.execPath, [AALIS_BIN, ...args], { cwd, env: childEnv(env), stdio: 'pipe' });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('close', (code, signal) => resolve(code ?? signal ?? -1));
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs `aalis <args>` with `input` on standard input until it exits. */
export async function runAalis(options: { cwd: string; args: string[]; input?: string; env?: Record<string, string> }) {
  const run = spawnAalis(options);
  run.child.stdin!.end(options.input ?? '');
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** Polls until `check` returns a value (not undefined/false) or the deadline passes; never sleeps blindly. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 15_000, what = 'the condition' }: { timeoutMs?: number; what?: string | (() => string) } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function temporaryWorkspace(config?: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-e2e-'));
  if (config !== undefined) writeFileSync(join(dir, 'aalis.config.yaml'), config);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `aalis serve` in a new workspace with this configuration (its own port, no input); `cleanups` gets what stops it
 * and removes the workspace.
 */
export function serveWorkspace(config: string, cleanups: Array<() => Promise<unknown> | unknown>): AalisProcess {
  const workspace = temporaryWorkspace(config);
  const serve = spawnAalis({ cwd: workspace.dir, args: ['serve'], env: { AALIS_WEBUI_PORT: '0' } });
  serve.child.stdin!.end();
  cleanups.push(async () => {
    if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
    await serve.exited;
    workspace.remove();
  });
  return serve;
}

/** A configuration talking to the scripted test server. */
export function serverConfig(url: string, extra = ''): string {
  return `locale: en
llm:
  baseUrl: ${url}
  model: test-model
plugins:
  llm-openai:
    fetchModels: false
    retry: { maxRetries: 0 }
${extra}`;
}

/** A streamed answer that sends its first words, then hangs until the client gives up (a turn to stop mid-way). */
export function unfinishedAnswer(words: string) {
  return {
    type: 'stream' as const,
    steps: [
      { text: words },
      { flush: true as const },
      { delayMs: 60_000 },
      { text: ' NEVER SHOWN' },
      { done: true as const },
    ],
  };
}

/** Time limit of one end-to-end test (each starts real processes; generous for a loaded CI machine). */
export const E2E_TIMEOUT_MS = 60_000;
