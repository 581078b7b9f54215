// The spec's five snippets (「接入运行时」 for Vue 3, React, plain JS and Vue 2.7, and 「工具生命周期钩子」) run verbatim in a Vite app
// whose only configuration is `.env.local` — nothing passed by hand — and reach the model, in a production build and in
// the dev server, in Chromium. Vite's env loading is on (envDir is the app root), as in any app. The fixtures live in
// the adapters' packages.
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { chromiumPerFile, PACKAGES, sendInDock } from './chromium-per-file.case.js';
import type { OpenedFixture } from './open-fixture.js';

const SNIPPETS = {
  'Vue 3': new URL('pling-vue/src/fixtures/spec-vue.case.ts', PACKAGES),
  React: new URL('pling-react/src/fixtures/spec-react.case.tsx', PACKAGES),
  'plain JS': new URL('pling-vanilla/src/fixtures/spec-vanilla.case.ts', PACKAGES),
  'Vue 2.7': new URL('pling-vue2/src/fixtures/spec-vue2.case.ts', PACKAGES),
  'tool hooks (Vue 3)': new URL('pling-vue/src/fixtures/spec-hooks.case.ts', PACKAGES),
};
const ENV_LOCAL = { VITE_AGENT_BASE_URL: '/v1', VITE_AGENT_MODEL: 'env-model' };

async function chat(fixture: OpenedFixture, reply: string) {
  const { page, modelServer } = fixture;
  modelServer.enqueue(textReply(reply));
  await page.locator('[data-pling="dock"]').waitFor();
  expect(await page.locator('[data-pling="not-configured"]').count()).toBe(0);
  const dock = await sendInDock(page, '你好');
  await dock.getByText(reply).waitFor();
  const [body] = modelServer.chatBodies() as Array<{ model: string }>;
  expect(body?.model).toBe('env-model');
}

describe('the spec snippets with only .env.local', { timeout: 120_000 }, () => {
  const chromium = chromiumPerFile();

  for (const [name, entry] of Object.entries(SNIPPETS)) {
    it(`${name}: a production build reads VITE_AGENT_* from .env.local and reaches the model`, async () => {
      const fixture = await chromium.openViteApp({ entry, envLocal: ENV_LOCAL, mode: 'build' });
      await chat(fixture, `来自 ${name} 的回答`);
      expect(fixture.errors).toEqual([]);
    });
  }

  for (const name of ['plain JS', 'Vue 3', 'React', 'Vue 2.7'] as const) {
    it(`${name}: the dev server reads VITE_AGENT_* from .env.local and reaches the model`, async () => {
      const fixture = await chromium.openViteApp({ entry: SNIPPETS[name], envLocal: ENV_LOCAL, mode: 'dev' });
      await chat(fixture, `开发服务器里 ${name} 的回答`);
      expect(fixture.errors).toEqual([]);
    });
  }

  for (const name of ['plain JS', 'Vue 3', 'React', 'Vue 2.7'] as const) {
    it(`常见失败 ${name}: without the variables the dock shows NOT_CONFIGURED before any request`, async () => {
      const fixture = await chromium.openViteApp({ entry: SNIPPETS[name], envLocal: {}, mode: 'build' });
      const notice = fixture.page.locator('[data-pling="not-configured"]');
      await notice.locator('summary').click();
      const code = notice.locator('[data-pling="error-code"]');
      await code.waitFor();
      expect(await code.textContent()).toBe('NOT_CONFIGURED');
      expect(await notice.textContent()).toContain('VITE_AGENT_BASE_URL');
      expect(fixture.modelServer.chatBodies()).toEqual([]);
      expect(fixture.errors).toEqual([]);
    });
  }

  it('without the variables the dock says NOT_CONFIGURED and sends nothing', async () => {
    const fixture = await chromium.openViteApp({ entry: SNIPPETS['plain JS'], envLocal: {}, mode: 'build' });
    await fixture.page.locator('[data-pling="not-configured"]').waitFor();
    expect(fixture.modelServer.chatBodies()).toEqual([]);
  });
});
