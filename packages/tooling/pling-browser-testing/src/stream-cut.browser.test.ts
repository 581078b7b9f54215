// In every adapter's dock in Chromium: a model stream cut after part of the reply was shown keeps that part visible,
// marked as interrupted (data-interrupted and the locale's mark), with the MODEL_STREAM_ERROR code in the dock — and
// one cut before anything was shown is retried without a trace.
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { chromiumPerFile, PACKAGES, sendInDock } from './chromium-per-file.case.js';

const DOCKS = {
  'plain JS': new URL('pling-vanilla/src/fixtures/todo-page.case.ts', PACKAGES),
  'Vue 3': new URL('pling-vue/src/fixtures/todo-page.case.ts', PACKAGES),
  React: new URL('pling-react/src/fixtures/todo-app.case.tsx', PACKAGES),
  'Vue 2.7': new URL('pling-vue2/src/fixtures/todo-app.case.ts', PACKAGES),
};

describe('a reply cut mid-stream, in every dock', { timeout: 120_000 }, () => {
  const chromium = chromiumPerFile();

  for (const [name, entry] of Object.entries(DOCKS)) {
    it(`${name}: the partial reply stays visible and marked, with MODEL_STREAM_ERROR`, async () => {
      const { page, modelServer } = await chromium.openFixture({ entry });
      // The stream is cut once the page shows its first words: a fixed pause let a loaded machine read the words and
      // the cut together, and a cut before anything was shown is (rightly) retried instead.
      let shown = () => {};
      const onScreen = new Promise<void>((resolve) => {
        shown = resolve;
      });
      modelServer.enqueue({
        type: 'stream',
        steps: [{ role: 'assistant' }, { text: '已经写出的半句' }, { until: onScreen }, { cut: true }],
      });
      const dock = await sendInDock(page, '写点什么');
      await dock.locator('[data-pling="message"]', { hasText: '已经写出的半句' }).waitFor();
      shown();
      const cut = dock.locator('[data-pling="message"][data-interrupted="true"]');
      await cut.waitFor();
      expect(await cut.textContent()).toContain('已经写出的半句');
      expect(await cut.locator('[data-pling="interrupted"]').textContent()).toBe('（回复中断，未完成）');
      await expect.poll(() => dock.textContent()).toContain('MODEL_STREAM_ERROR');
      expect(modelServer.chatBodies()).toHaveLength(1);
    });
  }

  it("behind Vite's dev server proxy (a Vite app's /v1): a cut mid-stream reaches the page as a cut", async () => {
    // Vite's proxy used to keep the page's response open after the model server cut it: the dock hung, streaming.
    const { page, modelServer } = await chromium.openViteApp({
      entry: new URL('pling-vanilla/src/fixtures/spec-vanilla.case.ts', PACKAGES),
      envLocal: { VITE_AGENT_BASE_URL: '/v1', VITE_AGENT_MODEL: 'env-model' },
      mode: 'dev',
    });
    // Cut once the page shows the first words, as in the cases above (not after a fixed pause).
    let shown = () => {};
    const onScreen = new Promise<void>((resolve) => {
      shown = resolve;
    });
    modelServer.enqueue({
      type: 'stream',
      steps: [{ role: 'assistant' }, { text: '代理后面的半句' }, { until: onScreen }, { cut: true }],
    });
    const dock = await sendInDock(page, '写点什么');
    await dock.locator('[data-pling="message"]', { hasText: '代理后面的半句' }).waitFor();
    shown();
    const cut = dock.locator('[data-pling="message"][data-interrupted="true"]');
    await cut.waitFor({ timeout: 15_000 });
    expect(await cut.textContent()).toContain('代理后面的半句');
    await expect.poll(() => dock.textContent()).toContain('MODEL_STREAM_ERROR');
    expect(modelServer.chatBodies()).toHaveLength(1);
  });

  it('a cut before any text is retried and the reply arrives whole', async () => {
    const { page, modelServer } = await chromium.openFixture({ entry: DOCKS['plain JS'] });
    modelServer.enqueue({ type: 'stream', steps: [{ role: 'assistant' }, { flush: true }, { cut: true }] });
    modelServer.enqueue(textReply('完整的回答'));
    const dock = await sendInDock(page, '你好');
    await dock.getByText('完整的回答').waitFor();
    expect(modelServer.chatBodies()).toHaveLength(2);
    expect(await dock.locator('[data-interrupted]').count()).toBe(0);
  });
});
