// `aalis memory reindex [--config <file>]`: rebuilds long-term memory's dense vectors with the configured embedding
// model (after the model or its dimension changed), showing progress. It starts only the plugins the index needs
// (storage, memory, the embedding provider, long-term memory) with the deployment's configuration — no platform, no
// session server — so it can run beside a stopped or a running deployment.
import { memoryVector } from '@aalis/api-memory-vector';
import { App, memorySink, reasonOf } from '@aalis/core';
import { memoryVectorErrors } from '@aalis/plugin-memory-vector';
import { processAlive, readServerAddress } from '@aalis/plugin-session-server';
import { loadCommandConfig } from './command-config.js';
import './memory-command-texts.js';

/** The plugins a re-index starts, by their key under `plugins:` (the session manager lets it catch up first). */
const NEEDED = ['storage', 'memory', 'session-manager', 'embedding-openai', 'memory-vector'];

export interface MemoryCommandOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  configFile?: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Runs `aalis memory reindex`; resolves with the exit code. */
export async function runMemoryCommand(options: MemoryCommandOptions): Promise<number> {
  const loaded = await loadCommandConfig(options);
  if (loaded === 2) return 2;
  const { config, t } = loaded;
  const locale = config.host.locale;
  const planned = config.plugins.filter(({ slot }) => NEEDED.includes(slot.alias));
  if (!planned.some(({ slot }) => slot.alias === 'memory-vector')) {
    options.stderr.write(`${t('runtime.memory.disabled')}\n`);
    return 1;
  }
  if (!planned.some(({ slot }) => slot.alias === 'embedding-openai')) {
    options.stderr.write(`${memoryVectorErrors.AALIS_MEMORY_VECTOR_NO_EMBEDDING().localized(locale)}\n`);
    return 1;
  }
  const address = readServerAddress(config.dataDir);
  if (address && processAlive(address.pid)) {
    options.stderr.write(`${t('runtime.memory.serverRunning', { pid: address.pid })}\n`);
  }

  // Log records stay in memory: the command speaks for itself, a failure is said once below.
  const app = new App({ locale, logSinks: [memorySink('warn')], preferences: config.preferences });
  for (const { slot, section } of planned) {
    const definition = await slot.load?.();
    if (definition) app.plugin(definition, section, slot.id ? { id: slot.id } : {});
  }
  const started = Date.now();
  try {
    await app.start();
    await app.settled();
    const service = app.services.selected(memoryVector)?.impl;
    if (!service) {
      const failed = app.states().find((state) => state.error);
      options.stderr.write(
        `${t('runtime.memory.notActive', { reason: failed?.error?.localized(locale) ?? failed?.name ?? '?' })}\n`,
      );
      return 1;
    }
    const before = await service.status();
    options.stderr.write(
      `${t('runtime.memory.start', { model: before.vectors.model ?? '?', total: before.indexed })}\n`,
    );
    let shownPercent = 0;
    const result = await service.reindex({
      onProgress: ({ embedded, total }) => {
        if (embedded === 0) return;
        const percent = total === 0 ? 100 : Math.floor((100 * embedded) / total);
        // A terminal shows one line that moves on; a log file gets a line per tenth.
        if (options.stderr.isTTY)
          options.stderr.write(`\r${t('runtime.memory.progress', { embedded, total, percent })}`);
        else if (percent >= shownPercent + 10 || embedded === total) {
          shownPercent = percent;
          options.stderr.write(`${t('runtime.memory.progress', { embedded, total, percent })}\n`);
        }
      },
    });
    if (options.stderr.isTTY) options.stderr.write('\n');
    options.stdout.write(
      `${t('runtime.memory.done', {
        embedded: result.embedded,
        model: result.model,
        dimensions: result.dimensions,
        seconds: ((Date.now() - started) / 1000).toFixed(1),
      })}\n`,
    );
    return 0;
  } catch (error) {
    const reason = reasonOf(error, locale);
    options.stderr.write(`\n${t('runtime.memory.failed', { reason })}\n`);
    return 1;
  } finally {
    await app.stop();
  }
}
