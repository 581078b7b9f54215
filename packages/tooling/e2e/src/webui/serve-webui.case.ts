// Test and screenshot helper: a real `aalis serve` (spawned like packages/host/runtime's end-to-end tests) against the
// scripted OpenAI-compatible server from @aalis/testing, its one-time login link read from its output, and
// Debian's Chromium through playwright-core. Never shipped.

import { type OpenAiTestServer, startOpenAiTestServer } from '@aalis/testing';
import { type Browser, launchChromium } from '@plingjs/browser-testing';
import {
  type AalisProcess,
  serverConfig,
  spawnAalis,
  temporaryWorkspace,
  waitFor,
} from '../../../../host/runtime/src/spawn-aalis.case.js';

/** The models the scripted server stands for: one with thinking levels, one that sees images. */
export const TEST_MODELS = `    models:
      - id: test-model
        name: Test Model
        contextWindow: 32000
        maxOutputTokens: 4000
        thinking:
          levels: [{ id: low, name: Low }, { id: high, name: High }]
          default: low
      - id: vision-model
        name: Vision Model
        capabilities: { vision: true }
`;

export interface ServedWebui {
  /** The login link `aalis serve` printed (`http://127.0.0.1:<port>/?token=…`). */
  link: string;
  /** The server's origin, e.g. http://127.0.0.1:41234. */
  origin: string;
  model: OpenAiTestServer;
  aalis: AalisProcess;
  browser: Browser;
  /** Workspace directory (aalis.config.yaml, data/). */
  dir: string;
  /** Mints a fresh one-time link for another browser context (`aalis webui-link [--account <userId>]`). */
  freshLink(account?: string): Promise<string>;
  stop(): Promise<void>;
}

const LINK = /https?:\/\/127\.0\.0\.1:\d+\/\?token=[^\s"'<>]+/;

export async function serveWebui({
  locale = 'en',
  extraConfig = '',
  chromiumArgs = [],
}: {
  locale?: 'en' | 'zh-CN';
  extraConfig?: string;
  /** Chromium flags beyond the usual ones (a fake microphone for recording). */
  chromiumArgs?: string[];
} = {}): Promise<ServedWebui> {
  const model = await startOpenAiTestServer();
  const config = serverConfig(model.url, TEST_MODELS + extraConfig).replace(/^locale: en$/m, `locale: ${locale}`);
  const workspace = temporaryWorkspace(config);
  const aalis = spawnAalis({ cwd: workspace.dir, args: ['serve'], env: { AALIS_WEBUI_PORT: '0' } });
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    if (aalis.child.exitCode === null) aalis.child.kill('SIGTERM');
    await Promise.race([aalis.exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (aalis.child.exitCode === null) aalis.child.kill('SIGKILL');
    await model.close();
    workspace.remove();
  };
  try {
    const link = await waitFor(
      () => LINK.exec(aalis.stdout())?.[0] ?? (aalis.child.exitCode !== null ? 'exited' : false),
      {
        timeoutMs: 60_000,
        what: () => `the login link from aalis serve\nstdout: ${aalis.stdout()}\nstderr: ${aalis.stderr()}`,
      },
    );
    if (link === 'exited') throw new Error(`aalis serve exited early:\n${aalis.stdout()}\n${aalis.stderr()}`);
    browser = await launchChromium({ args: chromiumArgs });
    const origin = new URL(link).origin;
    const freshLink = async (account?: string) => {
      const run = spawnAalis({ cwd: workspace.dir, args: ['webui-link', ...(account ? ['--account', account] : [])] });
      run.child.stdin?.end();
      await run.exited;
      const fresh = LINK.exec(run.stdout())?.[0];
      if (!fresh) throw new Error(`aalis webui-link printed no link: ${run.stdout()} ${run.stderr()}`);
      return fresh;
    };
    return { link, origin, model, aalis, browser, dir: workspace.dir, freshLink, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
