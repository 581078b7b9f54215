// The console's 模型/Models, 平台/Platforms and 人格/Personas sections in Debian Chromium against a real `aalis start`
// (what `npm start` runs) started with NO configuration (the offline demo model): the model server is added from the
// page alone (its base URL, tested, saved), made the default, and a chat is answered by it — no file opened, no
// restart. A Telegram token
// the Bot API refuses shows in the page naming the key; a OneBot implementation and an MCP server (stdio) are added
// from the page and show connected, the MCP server is edited; a persona is created and edited. zh-CN and en, desktop
// and phone; screenshots in docs/screenshots/webui/.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  type BotApiServer,
  type OneBotImplementation,
  type OpenAiTestServer,
  startBotApiServer,
  startOneBotImplementation,
  startOpenAiTestServer,
  textReply,
} from '@aalis/testing';
import { type Browser, type BrowserContext, launchChromium, type Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AalisProcess,
  spawnAalis,
  temporaryWorkspace,
  waitFor,
} from '../../../../host/runtime/src/spawn-aalis.case.js';

const TIMEOUT = 120_000;
const SLOW = { timeout: 20_000 };
const SHOTS = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');
const LINK = /https?:\/\/127\.0\.0\.1:\d+\/\?token=[^\s"'<>]+/;

let model: OpenAiTestServer;
let botApi: BotApiServer;
let onebot: OneBotImplementation;
const everything = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
let workspace: { dir: string; remove(): void };
let serve: AalisProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  model = await startOpenAiTestServer({ models: ['scripted-model'] });
  botApi = await startBotApiServer({ token: '777:the-right-token' });
  onebot = await startOneBotImplementation({ selfId: 10001, accessToken: 'onebot-secret' });
  // No aalis.config.yaml: the first start writes the defaults and answers with the offline demo model. `aalis start`
  // is what `npm start` runs (the terminal chat, which prints the WebUI's login link too); its input stays open, as
  // a terminal's would, until the end.
  workspace = temporaryWorkspace();
  serve = spawnAalis({ cwd: workspace.dir, args: ['start'], env: { AALIS_WEBUI_PORT: '0' } });
  const link = await waitFor(() => LINK.exec(serve.stdout())?.[0], {
    timeoutMs: 60_000,
    what: () => `the login link\nstdout: ${serve.stdout()}\nstderr: ${serve.stderr()}`,
  });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => localStorage.setItem('aalis.webui.locale', 'en'));
  page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(link);
  await page.getByTestId('new-chat').waitFor();
  mkdirSync(SHOTS, { recursive: true });
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await browser?.close().catch(() => undefined);
  if (serve && serve.child.exitCode === null) serve.child.kill('SIGTERM');
  if (serve) await Promise.race([serve.exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (serve && serve.child.exitCode === null) serve.child.kill('SIGKILL');
  await model?.close();
  await botApi?.close();
  await onebot?.close();
  workspace?.remove();
}, TIMEOUT);

async function openAdmin(): Promise<void> {
  await page.getByTestId('open-admin').click();
  await page.getByTestId('models-section').waitFor();
}

describe('the console from an unconfigured start', () => {
  it(
    'adds the model server from the page alone, makes it the default and chats with it',
    async () => {
      await openAdmin();
      const openai = page.getByTestId('provider-openai');
      await openai.getByLabel('Base URL').fill(model.url);
      // A wrong address first: the test says what failed and how to fix it, nothing is saved.
      await openai.getByLabel('Base URL').fill(model.url.replace(/\/v1$/, ''));
      await openai.getByRole('button', { name: 'Test connection' }).click();
      const result = page.getByTestId('test-result-openai');
      await expect.poll(() => result.textContent(), SLOW).toContain('AALIS_PROVIDER_TEST_NOT_FOUND');
      expect(await result.textContent()).toContain('/v1');

      await openai.getByLabel('Base URL').fill(model.url);
      model.enqueue(textReply('OK'));
      await openai.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => result.textContent(), SLOW).toContain('answered "OK"');
      await openai.getByRole('button', { name: 'Save' }).click();
      const models = page.getByTestId('models-openai');
      await expect.poll(() => models.textContent().catch(() => ''), SLOW).toContain('openai/scripted-model');
      await page.getByRole('button', { name: 'Make default: openai/scripted-model' }).click();
      await expect.poll(() => page.locator('#console-default-model').inputValue(), SLOW).toBe('openai/scripted-model');
      // Written to the file, next to its comments; the key the page never had stays out of it.
      expect(readFileSync(join(workspace.dir, 'aalis.config.yaml'), 'utf8')).toContain(model.url);
      await page.screenshot({ path: join(SHOTS, 'console-models-en.png'), fullPage: true });

      // The chat is answered by the model server, not the offline demo model: no restart.
      await page.getByTestId('open-admin').click();
      await page.getByTestId('new-chat').waitFor();
      model.enqueue(textReply('Hello from the scripted model server.'));
      const box = page.getByTestId('composer-text');
      await box.fill('Hello there');
      await box.press('Enter');
      const last = page.getByTestId('conversation').getByTestId('turn').last();
      await expect.poll(() => last.textContent(), SLOW).toContain('Hello from the scripted model server.');
      expect(model.chatBodies().at(-1)?.model).toBe('scripted-model');
    },
    TIMEOUT,
  );

  it(
    'connects Telegram from the page and shows the refused token naming the key to fix',
    async () => {
      await openAdmin();
      const platforms = page.getByTestId('platforms-section');
      const telegram = platforms.getByTestId('telegram-form');
      await telegram.getByLabel('Bot token (from @BotFather)').fill('777:a-wrong-token');
      await telegram.getByLabel('Bot API root (empty: the official one)').fill(botApi.url);
      await telegram.getByRole('button', { name: 'Save' }).click();
      const row = platforms.getByTestId('platform-telegram');
      await expect.poll(() => row.getAttribute('data-status').catch(() => null), SLOW).toBe('refused');
      expect(await row.textContent()).toContain('plugins.platform-telegram.token');
      // The refusal may show before the save's answer puts the mask back into the field the person typed in.
      await expect.poll(() => telegram.getByLabel('Bot token (from @BotFather)').inputValue(), SLOW).toBe('••••••••');
      expect(await page.content()).not.toContain('a-wrong-token');
      await platforms.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'console-platforms-en.png'), fullPage: true });
    },
    TIMEOUT,
  );

  it(
    'adds OneBot and an MCP server from the page: each shows connected; the MCP server is edited',
    async () => {
      if (!(await page.getByTestId('platforms-section').isVisible())) await openAdmin();
      const platforms = page.getByTestId('platforms-section');
      const form = platforms.getByTestId('onebot-form');
      await form.getByLabel('WebSocket URL (forward), e.g. ws://127.0.0.1:3001').fill(onebot.url);
      await form.getByLabel('Access token').fill('onebot-secret');
      await form.getByRole('button', { name: 'Save' }).click();
      const row = platforms.getByTestId('platform-onebot');
      await expect.poll(() => row.getAttribute('data-status').catch(() => null), SLOW).toBe('connected');
      // Once saved, the form shows the token only as the mask (the page never gets it back in clear).
      await expect.poll(() => form.getByLabel('Access token').inputValue(), SLOW).toBe('••••••••');
      expect(await page.content()).not.toContain('onebot-secret');
      expect(readFileSync(join(workspace.dir, 'aalis.config.yaml'), 'utf8')).toContain(onebot.url);

      const mcp = platforms.getByTestId('mcp-form');
      await mcp.getByLabel('Name').fill('everything');
      await mcp.getByLabel(/^Command \(stdio\)/).fill(`${process.execPath} ${everything} stdio`);
      await mcp.getByRole('button', { name: 'Add MCP server' }).click();
      const list = mcp.getByTestId('mcp-list');
      await expect.poll(() => list.textContent(), { timeout: 60_000 }).toContain('Connected');
      expect(await list.textContent()).toMatch(/everything Connected \d+ tools/);
      // Edit: the form shows the stored command line; saved under the same name it replaces the entry.
      await mcp.getByRole('button', { name: 'Edit: everything' }).click();
      expect(await mcp.getByLabel(/^Command \(stdio\)/).inputValue()).toBe(`${process.execPath} ${everything} stdio`);
      await mcp.getByLabel(/^Command \(stdio\)/).fill('/nonexistent/mcp-server');
      await mcp.getByRole('button', { name: 'Add MCP server' }).click();
      await expect.poll(() => list.textContent(), { timeout: 30_000 }).not.toContain('Connected');
      expect(readFileSync(join(workspace.dir, 'aalis.config.yaml'), 'utf8')).toContain('/nonexistent/mcp-server');
      await platforms.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'console-platforms-en.png'), fullPage: true });
    },
    TIMEOUT,
  );

  it(
    'creates and edits a persona; zh-CN and a phone',
    async () => {
      const personas = page.getByTestId('personas-section');
      await personas.getByRole('button', { name: 'New persona' }).click();
      const form = personas.getByTestId('persona-form');
      await form.getByLabel('ID (letters, digits, _ - .)').fill('pirate');
      await form.getByLabel('Name').fill('Pirate');
      await form.getByLabel('Prompt').fill('Talk like a pirate.');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => personas.getByTestId('personas').textContent(), SLOW).toContain('Pirate');
      await form.getByLabel('Name').fill('Captain');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => personas.getByTestId('personas').textContent(), SLOW).toContain('Captain');
      expect(readFileSync(join(workspace.dir, 'data', 'personas', 'pirate.yaml'), 'utf8')).toContain('Captain');

      // zh-CN on a phone: the same sections, in Chinese.
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      await phone.addInitScript(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
      const small = await phone.newPage();
      const cookies = await context.cookies();
      await phone.addCookies(cookies);
      await small.goto(new URL('/', page.url()).toString());
      // The page lands in a new chat once it has loaded the sessions; a page opened before that was closed again by it.
      await small.getByTestId('new-chat').waitFor();
      // On a phone the admin area is in the drawer behind the menu button.
      await small.getByTestId('menu').click();
      await small.locator('[data-testid="open-admin"]:visible').click();
      await small.getByTestId('models-section').waitFor();
      await expect.poll(() => small.getByTestId('models-section').textContent(), SLOW).toContain('模型');
      await expect.poll(() => small.getByTestId('platforms-section').textContent(), SLOW).toContain('被拒绝');
      await expect.poll(() => small.getByTestId('personas-section').textContent(), SLOW).toContain('Captain');
      await small.screenshot({ path: join(SHOTS, 'console-models-phone-zh-CN.png'), fullPage: true });
      await phone.close();

      // zh-CN on a desktop: a context of its own (this one's init script sets en at every load).
      const desk = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await desk.addInitScript(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
      await desk.addCookies(cookies);
      const wide = await desk.newPage();
      await wide.goto(new URL('/', page.url()).toString());
      await wide.getByTestId('new-chat').waitFor();
      await wide.getByTestId('open-admin').click();
      await wide.getByTestId('models-section').waitFor();
      await expect.poll(() => wide.getByTestId('models-section').textContent(), SLOW).toContain('测试连接');
      await wide.screenshot({ path: join(SHOTS, 'console-models-zh-CN.png'), fullPage: true });
      await desk.close();
    },
    TIMEOUT,
  );
});
