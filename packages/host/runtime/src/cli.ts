// The aalis command: `aalis [start]` (interactive chat), `aalis chat` (line by line), `aalis serve` (headless),
// `aalis webui-link` (a fresh WebUI login link), `--help`, `--version`.
// SIGINT/SIGTERM/SIGHUP drain: running turns stop cleanly, then everything is disposed; a second SIGINT/SIGTERM exits
// at once.
import { AalisError, isLocale, type Locale, textRef, translate } from '@aalis/core';
import { parseArguments } from './cli-arguments.js';
import { type ConfigProblem, formatConfigProblems } from './config-problems.js';
import { localeHint } from './load-config.js';
import { runtimeErrors } from './runtime-errors.js';
import { shutdownSignals } from './shutdown-signals.js';
import { type RunningAalis, runtimeVersion, startAalis, startFailureLocales } from './start-aalis.js';
import './runtime-texts.js';

/** The signals that drain: a running turn stops cleanly, everything is closed, exit status 0. */
export const DRAIN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface MainIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Subscribes to process signals; returns the unsubscriber. */
  onSignal(handler: (signal: NodeJS.Signals) => void): () => void;
  /** Ends the process now (a second signal during shutdown). */
  exit(code: number): void;
}

export function processIo(): MainIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    onSignal(handler) {
      // SIGHUP: the terminal was closed (or the session ended); drained like SIGTERM.
      for (const signal of DRAIN_SIGNALS) process.on(signal, handler);
      return () => {
        for (const signal of DRAIN_SIGNALS) process.off(signal, handler);
      };
    },
    exit: (code) => process.exit(code),
  };
}

/** Runs the command; resolves with the exit code (0 after a clean finish or drained shutdown). */
export async function main(argv: readonly string[], io: MainIo = processIo()): Promise<number> {
  // A closed pipe or terminal (`aalis chat | head -1`, EPIPE/EIO) is no reason to crash with a stack trace: the
  // front end stops on its output's error (the running turn still finishes its records); later log lines are lost.
  io.stdout.on('error', () => {});
  io.stderr.on('error', () => {});
  const locale = localeHint(io.env);
  const command = parseArguments(argv);
  if (command.kind === 'help') {
    io.stdout.write(`${translate(textRef('runtime.cli.usage'), locale)}\n`);
    return 0;
  }
  if (command.kind === 'version') {
    io.stdout.write(`${runtimeVersion()}\n`);
    return 0;
  }
  if (command.kind === 'error') {
    io.stderr.write(`${translate(command.text, locale)}\n\n${translate(textRef('runtime.cli.usage'), locale)}\n`);
    return 2;
  }
  // What the one-shot commands below read and write; each is loaded only for its command.
  const commandIo = { cwd: io.cwd, env: io.env, stdout: io.stdout, stderr: io.stderr };
  if (command.kind === 'plugin') {
    const { runPluginCommand } = await import('./plugin-command.js');
    return runPluginCommand(command.action, command.target, { ...commandIo, locale });
  }
  if (command.kind === 'memory') {
    const { runMemoryCommand } = await import('./memory-command.js');
    return runMemoryCommand({ ...commandIo, ...(command.configFile ? { configFile: command.configFile } : {}) });
  }
  if (command.kind === 'webui-link') {
    // Its module reads the session server's login helpers.
    const { printWebuiLink } = await import('./webui-link.js');
    return printWebuiLink({
      ...commandIo,
      ...(command.account ? { account: command.account } : {}),
      ...(command.configFile ? { configFile: command.configFile } : {}),
    });
  }

  // The signal handlers are in place before anything starts (the banner is printed during the start): a signal while
  // starting drains as soon as the start is done, and the process exits 0 instead of dying by the signal.
  let running: RunningAalis | undefined;
  let signalledWhileStarting = false;
  const actOn = shutdownSignals();
  const unsubscribe = io.onSignal((signal) => {
    const action = actOn(signal);
    const uiLocale = running?.config.host.locale ?? locale;
    if (action === 'force') {
      io.stderr.write(`${translate(textRef('runtime.shutdown.forced', { signal }), uiLocale)}\n`);
      io.exit(1);
    } else if (action === 'drain') {
      io.stderr.write(`${translate(textRef('runtime.shutdown.signal', { signal }), uiLocale)}\n`);
      if (running) void running.stop();
      else signalledWhileStarting = true;
    }
  });
  try {
    running = await startAalis({
      cwd: io.cwd,
      env: io.env,
      mode: command.mode,
      input: io.stdin,
      output: io.stdout,
      errorOutput: io.stderr,
      ...(command.session ? { session: command.session } : {}),
      ...(command.configFile ? { configFile: command.configFile } : {}),
    });
  } catch (error) {
    unsubscribe();
    if (runtimeErrors.AALIS_RUNTIME_CONFIG_INVALID.is(error)) {
      const details = error.details as { problems: ConfigProblem[]; locale: Locale };
      io.stderr.write(
        `${formatConfigProblems(details.problems, isLocale(details.locale) ? details.locale : locale)}\n`,
      );
      return 2;
    }
    if (AalisError.isInstance(error)) {
      io.stderr.write(`${error.localized(startFailureLocales.get(error) ?? locale)}\n`);
      return 1;
    }
    throw error;
  }

  // The end of input drains as well (below), but only a second signal forces the exit (shutdown-signals.ts).
  if (signalledWhileStarting) void running.stop();
  try {
    await running.finished;
  } finally {
    await running.stop();
    unsubscribe();
  }
  return 0;
}
