// The Vue 3 recipe run the way its README says — `npm run example vue3`: Vite's dev server with the recipe's own
// vite.config.ts, `/v1` proxied to AGENT_UPSTREAM — in Chromium, against the scripted model server as the upstream.
import { fileURLToPath } from 'node:url';
import { type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { type Browser, launchChromium, type Page } from '@plingjs/browser-testing';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const configFile = fileURLToPath(new URL('../../../../examples/recipes/vue3/vite.config.ts', import.meta.url));

describe('examples/recipes/vue3 through its dev server', { timeout: 90_000 }, () => {
  let modelServer: OpenAiTestServer;
  let server: ViteDevServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    modelServer = await startOpenAiTestServer();
    // What the README's command line sets; the config reads AGENT_UPSTREAM when it loads.
    process.env.AGENT_UPSTREAM = modelServer.url;
    process.env.VITE_AGENT_MODEL = 'recipe-model';
    server = await createServer({
      configFile,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, hmr: false, ws: false },
    });
    await server.listen();
    url = server.resolvedUrls?.local[0] ?? '';
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await modelServer?.close();
    delete process.env.AGENT_UPSTREAM;
    delete process.env.VITE_AGENT_MODEL;
  });

  async function openRecipe(): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    await page.locator('[data-pling="dock"]').waitFor();
    return page;
  }

  async function send(page: Page, text: string) {
    await page.locator('[data-pling="input"]').fill(text);
    await page.locator('[data-pling="input"]').press('Enter');
  }

  it('answers through the proxy with the model from VITE_AGENT_MODEL', async () => {
    const page = await openRecipe();
    modelServer.enqueue(textReply('订单都在这里。'));
    await send(page, '有哪些订单？');
    await page.getByText('订单都在这里。').waitFor();
    expect((modelServer.chatBodies()[0] as { model: string }).model).toBe('recipe-model');
    await page.context().close();
  });

  it('a reply the upstream cuts mid-stream ends as MODEL_STREAM_ERROR with the part shown kept (no hang)', async () => {
    const page = await openRecipe();
    // The stream is cut once the page shows its first words: after a fixed pause a loaded machine could read the words
    // and the cut together, and a cut before anything was shown is (rightly) retried instead.
    let shown = () => {};
    const onScreen = new Promise<void>((resolve) => {
      shown = resolve;
    });
    modelServer.enqueue({
      type: 'stream',
      steps: [{ role: 'assistant' }, { text: '正在查询第一笔' }, { until: onScreen }, { cut: true }],
    });
    await send(page, '查一下');
    await page.locator('[data-pling="message"]', { hasText: '正在查询第一笔' }).waitFor();
    shown();
    const cut = page.locator('[data-pling="message"][data-interrupted="true"]');
    await cut.waitFor({ timeout: 15_000 });
    expect(await cut.textContent()).toContain('正在查询第一笔');
    await expect.poll(() => page.locator('[data-pling="dock"]').textContent()).toContain('MODEL_STREAM_ERROR');
    await page.context().close();
  });
});
