// The console's plugin settings in Debian Chromium against a real `aalis serve`: the admin area lists every plugin
// with what it is for; a plugin's settings form (generated from its schema) saves a new system prompt that the next
// model call carries and that is written back to aalis.config.yaml with its comment; an invalid value is refused
// with the schema's message under the field; a plugin is turned off (its dependants wait) and on again; the audit
// log shows each change. zh-CN and en, desktop and phone; screenshots in docs/screenshots/webui/.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { textReply } from '@aalis/testing';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;
const SLOW = { timeout: 15_000 };
const SHOTS = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');

let served: ServedWebui;
let context: BrowserContext;
let page: Page;
const configText = () => readFileSync(join(served.dir, 'aalis.config.yaml'), 'utf8');

beforeAll(async () => {
  served = await serveWebui({
    extraConfig: `  # the turn engine
  agent:
    systemPrompt: "Be brief."   # house rules
`,
  });
  context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  mkdirSync(SHOTS, { recursive: true });
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
}, TIMEOUT);

const row = (id: string) => page.locator(`[data-testid="plugins"] tr[data-plugin="${id}"]`);

describe('the console’s plugin settings', () => {
  it(
    'edits a plugin’s settings from its schema, applied live and written back; refuses an invalid value inline',
    async () => {
      await page.goto(served.link);
      // The page lands in a new chat once it has loaded the sessions; a page opened before that was closed again by it.
      await page.getByTestId('new-chat').waitFor();
      await page.getByTestId('open-admin').click();
      const agent = row('@aalis/plugin-agent');
      await expect
        .poll(() => agent.locator('.plugin-description').textContent(), SLOW)
        .toBe('The conversation orchestrator (the turn engine).');
      await agent.getByRole('button', { name: 'Settings' }).click();
      const form = page.getByRole('form', { name: 'Settings of @aalis/plugin-agent' });
      const prompt = form.getByLabel('systemPrompt', { exact: true });
      await expect.poll(() => prompt.inputValue(), SLOW).toBe('Be brief.');
      await prompt.fill('Always answer in French.');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => form.getByTestId('settings-outcome').textContent(), SLOW).toContain('running');
      expect(configText()).toContain('  agent:\n    systemPrompt: "Always answer in French."   # house rules\n');

      // An invalid value: the schema's message under the field, the code after the sentence, nothing written.
      const before = configText();
      const summary = row('@aalis/plugin-memory-summary');
      await summary.getByRole('button', { name: 'Settings' }).click();
      const summaryForm = page.getByRole('form', { name: 'Settings of @aalis/plugin-memory-summary' });
      await summaryForm.getByLabel('maxSummaryTokens', { exact: true }).fill('10');
      await summaryForm.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => summaryForm.getByTestId('field-issue').first().textContent(), SLOW).toContain('≥ 64');
      expect(await summaryForm.getByTestId('settings-outcome').textContent()).toContain('AALIS_HOST_CONFIG_INVALID');
      expect(await summaryForm.getByLabel('maxSummaryTokens', { exact: true }).getAttribute('aria-invalid')).toBe(
        'true',
      );
      expect(configText()).toBe(before);
      await summary.getByRole('button', { name: 'Close' }).click();
      await page.screenshot({ path: join(SHOTS, 'console-settings-en.png'), fullPage: true });

      // The next turn runs with the new prompt, without a restart.
      await page.getByRole('button', { name: 'Back to the conversation' }).click();
      await page.getByTestId('new-session').click();
      served.model.enqueue(textReply('Bonjour.'));
      const box = page.getByTestId('composer-text');
      await box.fill('hello');
      await box.press('Enter');
      await expect.poll(() => served.model.chatBodies().length, SLOW).toBeGreaterThan(0);
      expect(JSON.stringify(served.model.chatBodies().at(-1)?.messages)).toContain('Always answer in French.');
    },
    TIMEOUT,
  );

  it(
    'turns a plugin off and on again (its dependants wait meanwhile); the audit log shows the changes',
    async () => {
      await page.getByTestId('open-admin').click();
      const tools = row('@aalis/plugin-tools');
      await tools.getByRole('button', { name: 'Disable' }).click();
      await expect.poll(() => tools.getAttribute('data-state'), SLOW).toBe('disabled');
      await expect.poll(() => row('@aalis/runtime/basic-tools').getAttribute('data-state'), SLOW).toBe('pending');
      expect(configText()).toContain('  tools: false\n');
      await tools.getByRole('button', { name: 'Enable' }).click();
      await expect.poll(() => tools.getAttribute('data-state'), SLOW).toBe('active');
      await expect.poll(() => row('@aalis/runtime/basic-tools').getAttribute('data-state'), SLOW).toBe('active');
      expect(configText()).not.toContain('tools: false');
      await page.getByRole('button', { name: 'Back to the conversation' }).click();
      await page.getByTestId('open-admin').click();
      const audit = page.getByTestId('audit-log');
      await expect.poll(() => audit.locator('tbody tr').count(), SLOW).toBe(3);
      expect(await audit.locator('tbody tr').first().textContent()).toContain('plugin.enable');
      expect(await audit.textContent()).toContain('plugins.agent.systemPrompt');
      await audit.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'console-audit-en.png') });
    },
    TIMEOUT,
  );

  it(
    'refuses to overwrite a file edited by hand meanwhile, and keeps a plugin running that fails to start',
    async () => {
      const agent = row('@aalis/plugin-agent');
      await agent.getByRole('button', { name: 'Settings' }).click();
      const form = page.getByRole('form', { name: 'Settings of @aalis/plugin-agent' });
      const prompt = form.getByLabel('systemPrompt', { exact: true });
      await expect.poll(() => prompt.inputValue(), SLOW).toBe('Always answer in French.');
      // Someone edits the file by hand while the form is open: the save is refused, the hand edit stays.
      const edited = configText().replace('# house rules', '# house rules, edited by hand');
      writeFileSync(join(served.dir, 'aalis.config.yaml'), edited);
      await prompt.fill('Answer in Latin.');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => form.getByTestId('settings-outcome').textContent(), SLOW)
        .toContain('AALIS_HOST_CONFIG_CHANGED');
      expect(configText()).toBe(edited);
      await agent.getByRole('button', { name: 'Close' }).click();

      // A value the plugin cannot start with: its coded error, the previous settings running, nothing written.
      const media = row('@aalis/plugin-media');
      await media.getByRole('button', { name: 'Settings' }).click();
      const mediaForm = page.getByRole('form', { name: 'Settings of @aalis/plugin-media' });
      await mediaForm.locator('[name="transcription.baseUrl"]').fill('ftp://127.0.0.1/whisper');
      await mediaForm.getByRole('button', { name: 'Save' }).click();
      const outcome = mediaForm.getByTestId('settings-outcome');
      await expect.poll(() => outcome.textContent(), SLOW).toContain('AALIS_HOST_CONFIG_START_FAILED');
      // The plugin's own reason, naming the key and what it should be.
      expect(await outcome.textContent()).toContain('plugins.media.transcription.baseUrl');
      expect(await outcome.textContent()).toContain('the previous settings are running again');
      expect(configText()).toBe(edited);
      expect(await media.getAttribute('data-state')).toBe('active');
      await mediaForm.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'console-settings-refused-en.png') });
      await media.getByRole('button', { name: 'Close' }).click();
    },
    TIMEOUT,
  );

  it(
    'works in Chinese on a phone: 设置, 保存, 停用 and 启用',
    async () => {
      await page.evaluate(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${served.origin}/`);
      await page.getByTestId('new-chat').waitFor();
      // On a phone the admin area is in the drawer behind the menu button.
      await page.getByTestId('menu').click();
      await page.locator('[data-testid="open-admin"]:visible').click();
      const agent = row('@aalis/plugin-agent');
      await expect
        .poll(() => agent.locator('.plugin-description').textContent(), SLOW)
        .toBe('对话编排器（轮次引擎）。');
      await agent.getByRole('button', { name: '设置' }).click();
      const form = page.getByRole('form', { name: '@aalis/plugin-agent 的设置' });
      const prompt = form.getByLabel('systemPrompt', { exact: true });
      await expect.poll(() => prompt.inputValue(), SLOW).toBe('Always answer in French.');
      await prompt.fill('用中文简短回答。');
      await form.getByRole('button', { name: '保存' }).click();
      await expect.poll(() => form.getByTestId('settings-outcome').textContent(), SLOW).toContain('已保存并应用');
      expect(configText()).toContain('systemPrompt: "用中文简短回答。"   # house rules');
      await form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'console-settings-phone-zh-CN.png') });

      const summary = row('@aalis/plugin-memory-summary');
      await summary.getByRole('button', { name: '停用' }).click();
      await expect.poll(() => summary.getAttribute('data-state'), SLOW).toBe('disabled');
      await summary.getByRole('button', { name: '启用' }).click();
      await expect.poll(() => summary.getAttribute('data-state'), SLOW).toBe('active');
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: join(SHOTS, 'console-settings-zh-CN.png'), fullPage: true });
    },
    TIMEOUT,
  );
});
