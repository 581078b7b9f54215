// In Chromium, every adapter: a dock given `debug` or `config` after something else started the runtime either works
// (Vue's debug trace; React's useAgentSession does not start the runtime, so the dock's config applies) or fails with
// RUNTIME_ALREADY_STARTED saying what to do. Fixtures live in the adapters' packages.
import { textReply } from '@aalis/testing';
import { describe, expect, it } from 'vitest';
import { chromiumPerFile, PACKAGES, sendInDock } from './chromium-per-file.case.js';
import type { OpenedFixture } from './open-fixture.js';

const fixtureOf = (adapter: string, file = 'dock-after-start.case.ts') =>
  new URL(`pling-${adapter}/src/fixtures/${file}`, PACKAGES);

describe('a dock mounted after the runtime started', { timeout: 120_000 }, () => {
  const chromium = chromiumPerFile();

  async function open(adapter: string, which: string, file?: string) {
    const fixture = await chromium.openViteApp({ entry: fixtureOf(adapter, file), envLocal: {}, mode: 'build' });
    await fixture.page.goto(`${fixture.url}?case=${which}`);
    return fixture;
  }

  async function expectCodedError({ page, modelServer }: OpenedFixture) {
    const text = await page.locator('#error').textContent();
    expect(text).toContain('RUNTIME_ALREADY_STARTED');
    expect(text).toContain('createPling({ agent: { config } })');
    expect(text).toContain('model');
    expect(modelServer.chatBodies()).toEqual([]);
  }

  it('Vue 3: <AgentDock :debug> after useAgentSession() shows the request trace', async () => {
    const { page, modelServer, errors } = await open('vue', 'debug');
    await page.locator('#status').waitFor();
    modelServer.enqueue(textReply('有 trace 的回答'));
    const dock = await sendInDock(page, '你好');
    await dock.getByText('有 trace 的回答').waitFor();
    await expect.poll(() => dock.locator('[data-pling="trace-call"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('Vue 3: <AgentDock :config> after useAgentSession() takes part in the configuration', async () => {
    const { page, modelServer, errors } = await open('vue', 'config');
    modelServer.enqueue(textReply('用 dock 的配置'));
    const dock = await sendInDock(page, '你好');
    await dock.getByText('用 dock 的配置').waitFor();
    expect((modelServer.chatBodies()[0] as { model: string }).model).toBe('dock-model');
    // The composable follows the session the dock started.
    await expect.poll(() => page.locator('#status').textContent()).toBe('idle 2');
    expect(errors).toEqual([]);
  });

  it('Vue 3: <AgentDock :config> after pling.session() fails with RUNTIME_ALREADY_STARTED', async () => {
    const fixture = await open('vue', 'started');
    await fixture.page.locator('#error').waitFor();
    await expectCodedError(fixture);
  });

  it('React: <AgentDock config> after useAgentSession() works (the hook does not start the runtime)', async () => {
    const { page, modelServer, errors } = await open('react', 'hook', 'dock-after-start.case.tsx');
    modelServer.enqueue(textReply('用 dock 的配置'));
    const dock = await sendInDock(page, '你好');
    await dock.getByText('用 dock 的配置').waitFor();
    expect((modelServer.chatBodies()[0] as { model: string }).model).toBe('dock-model');
    expect(await page.locator('#status').textContent()).toBe('idle');
    expect(errors).toEqual([]);
  });

  it('React: <AgentDock config> after pling.session() fails with RUNTIME_ALREADY_STARTED', async () => {
    const fixture = await open('react', 'started', 'dock-after-start.case.tsx');
    await fixture.page.locator('#error').waitFor();
    await expectCodedError(fixture);
  });

  it('plain JS: pling.dock({ config }) after pling.session() works when it changes nothing, else fails coded', async () => {
    const same = await open('vanilla', 'same');
    await same.page.locator('[data-pling="dock"]').waitFor();
    expect(await same.page.locator('#error').count()).toBe(0);
    await same.close();
    const fixture = await open('vanilla', 'config');
    await fixture.page.locator('#error').waitFor();
    await expectCodedError(fixture);
  });

  it('Vue 2.7: pling.dock({ config }) after this.$pling.session() fails with RUNTIME_ALREADY_STARTED', async () => {
    const fixture = await open('vue2', 'config');
    await fixture.page.locator('#error').waitFor();
    await expectCodedError(fixture);
  });
});
