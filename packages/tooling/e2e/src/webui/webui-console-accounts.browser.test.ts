// The console's 账号/Accounts, 用量/Usage and 日志/Logs sections and password login in Debian Chromium against a real
// `aalis serve`: the owner creates an account with a level and a password from the page, a FRESH browser context
// (no cookie, no link) logs in with it — a wrong password first gets the one refusal text — and the owner revokes
// that login from the page, after which its page is logged out and its next request refused. The usage page shows
// the day's tokens and cost of real model calls (scripted server with usage, priced model) with a CSV export; the
// logs filter by level, plugin and session, follow live and download the shown range. en and zh-CN, desktop and
// phone; screenshots in docs/screenshots/webui/.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type OpenAiTestServer, startOpenAiTestServer, textReply } from '@aalis/testing';
import { type Browser, type BrowserContext, launchChromium, type Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AalisProcess,
  serverConfig,
  spawnAalis,
  temporaryWorkspace,
  waitFor,
} from '../../../../host/runtime/src/spawn-aalis.case.js';

const TIMEOUT = 120_000;
const SLOW = { timeout: 20_000 };
const SHOTS = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');
const LINK = /https?:\/\/127\.0\.0\.1:\d+\/\?token=[^\s"'<>]+/;
const PASSWORD = 'carol-first-secret-4';
const NEW_PASSWORD = 'carol-second-secret-8';
const OWNER_PASSWORD = 'owner-phone-secret-6';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
const DESKTOP = { viewport: { width: 1280, height: 900 } } as const;

let model: OpenAiTestServer;
let workspace: { dir: string; remove(): void };
let serve: AalisProcess;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
let origin: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  model = await startOpenAiTestServer();
  // A priced model: the usage page's cost comes from these prices (1000 prompt tokens = 1 USD, 500 completion = 1).
  workspace = temporaryWorkspace(
    serverConfig(
      model.url,
      `    models:
      - id: test-model
        name: Test Model
        prices: { promptPerMillion: 1000, completionPerMillion: 2000, currency: USD }
`,
    ),
  );
  serve = spawnAalis({ cwd: workspace.dir, args: ['serve'], env: { AALIS_WEBUI_PORT: '0' } });
  serve.child.stdin!.end();
  const link = await waitFor(() => LINK.exec(serve.stdout())?.[0], {
    timeoutMs: 60_000,
    what: () => `the login link\nstdout: ${serve.stdout()}\nstderr: ${serve.stderr()}`,
  });
  origin = new URL(link).origin;
  browser = await launchChromium();
  owner = await context('en', DESKTOP);
  page = await owner.newPage();
  await page.goto(link);
  await page.getByTestId('new-chat').waitFor();
  mkdirSync(SHOTS, { recursive: true });
}, TIMEOUT);

afterAll(async () => {
  for (const each of contexts) await each.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  if (serve && serve.child.exitCode === null) serve.child.kill('SIGTERM');
  if (serve) await Promise.race([serve.exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (serve && serve.child.exitCode === null) serve.child.kill('SIGKILL');
  await model?.close();
  workspace?.remove();
}, TIMEOUT);

/** A browser context in a language (no cookie: a fresh browser unless cookies are added). */
async function context(locale: 'en' | 'zh-CN', device: typeof PHONE | typeof DESKTOP): Promise<BrowserContext> {
  const made = await browser.newContext({ ...device, acceptDownloads: true });
  await made.addInitScript((value) => localStorage.setItem('aalis.webui.locale', value), locale);
  contexts.push(made);
  return made;
}

/** Opens the admin area (on a phone it is in the drawer behind the menu button). */
async function openAdmin(on: Page, phone = false): Promise<void> {
  if (phone) await on.getByTestId('menu').click();
  await on.locator('[data-testid="open-admin"]:visible').click();
  await on.getByTestId('accounts').waitFor();
}

/** Logs in on the login page with the account and password; resolves once the chat view shows. */
async function passwordLogin(on: Page, account: string, password: string): Promise<void> {
  const form = on.getByTestId('login-form');
  await form.locator('#login-account').fill(account);
  await form.locator('#login-password').fill(password);
  await form.locator('button[type="submit"]').click();
}

describe('accounts and password login', () => {
  it(
    'creates an account with a level and a password; a fresh browser logs in with it; the owner revokes that login',
    async () => {
      await openAdmin(page);
      const accounts = page.getByTestId('accounts');
      await accounts.getByLabel('Account id').fill('carol');
      await accounts.getByLabel('Display name').first().fill('Carol');
      await accounts.getByLabel('Level').fill('2');
      await accounts.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await accounts.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => accounts.getByRole('status').textContent(), SLOW).toBe('Account "carol" created.');
      const row = accounts.locator('[data-account="carol"]');
      await expect.poll(() => row.textContent(), SLOW).toContain('Level: 2');
      expect(await row.textContent()).toContain('Has a password');

      // A fresh browser: no cookie, no link. A wrong password gets the one refusal text; the right one logs in.
      const fresh = await context('en', DESKTOP);
      const carol = await fresh.newPage();
      await carol.goto(origin);
      await carol.getByTestId('login-form').waitFor();
      await passwordLogin(carol, 'carol', 'not-her-password');
      const refusal = carol.getByTestId('password-login-error');
      await expect.poll(() => refusal.textContent(), SLOW).toContain('AALIS_WEBUI_LOGIN_FAILED');
      const wrongText = await refusal.textContent();
      await passwordLogin(carol, 'nobody-here', PASSWORD);
      // An unknown account is refused with the same text (which of the two was wrong is not said).
      await expect.poll(() => carol.getByTestId('password-login-error').textContent(), SLOW).toBe(wrongText);
      await carol.screenshot({ path: join(SHOTS, 'console-login-password-en.png') });
      await passwordLogin(carol, 'carol', PASSWORD);
      await carol.getByTestId('new-chat').waitFor(SLOW);
      await expect.poll(() => carol.locator('[data-testid="account-menu"]:visible').textContent(), SLOW).toBe('Carol');
      const me = await carol.evaluate(() => fetch('/api/v1/me').then((response) => response.json()));
      expect(me.account).toEqual({ userId: 'carol', displayName: 'Carol', owner: false, level: 2 });
      // She is not the owner: no admin area.
      expect(await carol.getByTestId('open-admin').count()).toBe(0);

      // Her own menu lists this login as the current one.
      await carol.locator('[data-testid="account-menu"]:visible').click();
      const mine = carol.getByTestId('login-sessions');
      await expect.poll(() => mine.locator('li').count(), SLOW).toBe(1);
      expect(await mine.locator('li').getAttribute('data-current')).toBe('true');
      await carol.getByTestId('account-dialog').getByRole('button', { name: 'Close' }).click();

      // The owner sees her login (device, password login) and revokes it: her page is logged out at once.
      await row.getByRole('button', { name: 'Logins of "carol"' }).click();
      const logins = row.getByTestId('account-logins');
      await expect.poll(() => logins.textContent(), SLOW).toContain('Password login');
      expect(await logins.textContent()).toContain('Chrome');
      await page.screenshot({ path: join(SHOTS, 'console-accounts-en.png'), fullPage: true });
      await logins.getByRole('button', { name: /^Revoke login: / }).click();
      await expect.poll(() => accounts.getByRole('status').textContent(), SLOW).toContain('Login revoked');
      await expect.poll(() => logins.textContent(), SLOW).toContain('No login that has not expired.');
      await carol.getByTestId('login').waitFor(SLOW);
      const after = await carol.evaluate(() =>
        fetch('/api/v1/me').then(async (response) => ({ status: response.status, body: await response.json() })),
      );
      expect([after.status, after.body.error.code]).toEqual([401, 'AALIS_WEBUI_LOGIN_EXPIRED']);

      // Each change is in the console's audit log (read when the admin area opens), the password only as the mask.
      await page.getByTestId('open-admin').click();
      await page.getByTestId('new-chat').waitFor();
      await openAdmin(page);
      const audit = page.getByTestId('audit-log');
      await expect.poll(() => audit.textContent(), SLOW).toContain('{"displayName":"Carol","level":2}');
      const text = (await audit.textContent()) ?? '';
      expect(text).toContain('admin.accounts.logins.revoke');
      expect(text).toContain('accounts.carol.password');
      expect(text).not.toContain(PASSWORD);
    },
    TIMEOUT,
  );
});

describe('usage and logs', () => {
  it(
    'shows the day’s tokens and cost of real model calls, exported as CSV',
    async () => {
      await page.getByTestId('open-admin').click();
      await page.getByTestId('new-chat').waitFor();
      model.enqueue(textReply('Counted.', { usage: { promptTokens: 1000, completionTokens: 500, cachedTokens: 400 } }));
      const box = page.getByTestId('composer-text');
      await box.fill('Count this');
      await box.press('Enter');
      const last = page.getByTestId('conversation').getByTestId('turn').last();
      await expect.poll(() => last.textContent(), SLOW).toContain('Counted.');

      await openAdmin(page);
      const usage = page.getByTestId('usage');
      const total = usage.getByTestId('usage-total');
      // The section loaded when the admin area opened: after the call, so it counts it.
      await expect.poll(() => total.textContent(), SLOW).toContain('2.00 USD');
      expect(await total.textContent()).toContain('40%');
      const today = usage.getByTestId('usage-table').locator('tbody tr');
      await expect.poll(() => today.count(), SLOW).toBe(1);
      const cells = await today.locator('td').allTextContents();
      expect(cells.slice(1)).toEqual(['1', '1,000', '40%', '500', '2.00 USD']);
      // The chart has a bar for the day (30 days, one slot each).
      expect(await usage.getByTestId('usage-chart-tokens').locator('rect').count()).toBe(3);
      expect(await usage.getByTestId('usage-chart-cost').locator('rect').count()).toBe(1);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        usage.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^aalis-usage-day-30d-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      const lines = csv.trim().split(/\r?\n/);
      expect(lines[0]).toContain('Calls');
      expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2},1,1000,400,500,2(\.0+)?,USD/);

      await usage.getByLabel('Group by').selectOption('model');
      await expect.poll(() => usage.getByTestId('usage-table').textContent(), SLOW).toContain('test-model');
      await usage.scrollIntoViewIfNeeded();
      await usage.screenshot({ path: join(SHOTS, 'console-usage-en.png') });
    },
    TIMEOUT,
  );

  it(
    'filters the logs by level, plugin and session, follows live and downloads the shown range',
    async () => {
      const logs = page.getByTestId('logs-section');
      const shown = logs.getByTestId('logs');
      await logs.getByLabel('Plugin').fill('session-server');
      await logs.getByRole('button', { name: 'Filter' }).click();
      // The records shown before the filter hold 'WebUI account created' too: wait for the filtered list itself.
      const names = () => shown.locator('.log-name').allTextContents();
      await expect.poll(async () => (await names()).every((name) => name.includes('session-server')), SLOW).toBe(true);
      expect((await names()).length).toBeGreaterThan(0);
      expect(await shown.textContent()).toContain('WebUI account created');

      // Following live: a new account's record arrives without asking again.
      const before = await shown.locator('.log').count();
      await page.getByTestId('accounts').getByLabel('Account id').fill('dave');
      await page.getByTestId('accounts').getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => shown.locator('.log').count(), SLOW).toBeGreaterThan(before);
      expect(await shown.locator('.log').last().textContent()).toContain('WebUI account created');

      // The level: at warn and above, none of these info records.
      await logs.getByLabel('Level').selectOption('warn');
      await expect.poll(() => shown.locator('.log-info').count(), SLOW).toBe(0);
      await logs.getByLabel('Level').selectOption('info');
      await expect.poll(() => shown.locator('.log-info').count(), SLOW).toBeGreaterThan(0);

      // A session id no record has: nothing shown; download the range that is shown.
      await logs.getByLabel('Session id').fill('webui:owner:no-such-session');
      await logs.getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => shown.textContent(), SLOW).toContain('No log records match.');
      await logs.getByLabel('Session id').fill('');
      await logs.getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => shown.locator('.log').count(), SLOW).toBeGreaterThan(0);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        logs.getByRole('button', { name: 'Download' }).click(),
      ]);
      const text = readFileSync((await download.path())!, 'utf8');
      expect(text).toContain('WebUI account created');
      expect(text.trim().split('\n').length).toBe(await shown.locator('.log').count());
      expect(text).not.toContain(PASSWORD);
      await logs.scrollIntoViewIfNeeded();
      await logs.screenshot({ path: join(SHOTS, 'console-logs-en.png') });
    },
    TIMEOUT,
  );
});

describe('in Chinese and on a phone', () => {
  it(
    'logs in with a password on a phone in zh-CN, and shows the owner’s sections in Chinese',
    async () => {
      const phone = await context('zh-CN', PHONE);
      const small = await phone.newPage();
      await small.goto(origin);
      await small.getByTestId('login-form').waitFor();
      await passwordLogin(small, 'carol', 'still-not-it');
      await expect.poll(() => small.getByTestId('password-login-error').textContent(), SLOW).toMatch(/[账密]/);
      await small.screenshot({ path: join(SHOTS, 'console-login-password-phone-zh-CN.png') });
      await passwordLogin(small, 'carol', PASSWORD);
      await small.getByTestId('new-chat').waitFor(SLOW);

      // She changes her own password from her menu (the current one needed; a mismatch caught on the page).
      await small.getByTestId('menu').click();
      await small.locator('[data-testid="account-menu"]:visible').click();
      const mine = small.getByTestId('account-dialog');
      await mine.getByLabel('当前密码').fill('a-wrong-current-one');
      await mine.getByLabel('新密码', { exact: true }).fill(NEW_PASSWORD);
      await mine.getByLabel('再输一次新密码').fill(NEW_PASSWORD);
      await mine.getByRole('button', { name: '修改密码' }).click();
      await expect.poll(() => mine.getByRole('alert').textContent(), SLOW).toContain('AALIS_WEBUI_PASSWORD_WRONG');
      await mine.getByLabel('当前密码').fill(PASSWORD);
      await mine.getByLabel('新密码', { exact: true }).fill(NEW_PASSWORD);
      await mine.getByLabel('再输一次新密码').fill(NEW_PASSWORD);
      await mine.getByRole('button', { name: '修改密码' }).click();
      await expect.poll(() => mine.getByRole('status').textContent(), SLOW).toBe('密码已保存。');
      await small.screenshot({ path: join(SHOTS, 'console-my-account-phone-zh-CN.png') });
      const logins = await small.evaluate(
        async (pair) => {
          const statuses: number[] = [];
          for (const password of pair) {
            const response = await fetch('/api/v1/login', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ account: 'carol', password }),
            });
            statuses.push(response.status);
          }
          return statuses;
        },
        [PASSWORD, NEW_PASSWORD],
      );
      expect(logins).toEqual([401, 200]);

      // The owner, logged in by the start link, sets a first password (none asked before it) and a phone logs in
      // with it later, no shell needed.
      await page.locator('[data-testid="account-menu"]:visible').click();
      const ownerMenu = page.getByTestId('account-dialog');
      // The dialog opens once the account's logins and password state are read: count its fields only then.
      await ownerMenu.waitFor();
      expect(await ownerMenu.getByLabel('Current password').count()).toBe(0);
      await ownerMenu.getByLabel('New password', { exact: true }).fill(OWNER_PASSWORD);
      await ownerMenu.getByLabel('New password again').fill(OWNER_PASSWORD);
      await ownerMenu.getByRole('button', { name: 'Set a password' }).click();
      await expect.poll(() => ownerMenu.getByRole('status').textContent(), SLOW).toBe('Password saved.');
      await ownerMenu.getByRole('button', { name: 'Close' }).click();
      const ownerPhone = await (await context('zh-CN', PHONE)).newPage();
      await ownerPhone.goto(origin);
      await passwordLogin(ownerPhone, 'owner', OWNER_PASSWORD);
      await ownerPhone.getByTestId('new-chat').waitFor(SLOW);
      await ownerPhone.getByTestId('menu').click();
      expect(await ownerPhone.locator('[data-testid="open-admin"]:visible').count()).toBe(1);

      // The owner's sections in Chinese, on a phone and on a desktop.
      const cookies = await owner.cookies();
      for (const [device, name] of [
        [PHONE, 'phone-zh-CN'],
        [DESKTOP, 'zh-CN'],
      ] as const) {
        const zh = await context('zh-CN', device);
        await zh.addCookies(cookies);
        const view = await zh.newPage();
        await view.goto(origin);
        await openAdmin(view, device === PHONE);
        const accounts = view.getByTestId('accounts');
        await expect.poll(() => accounts.textContent(), SLOW).toContain('新建账号');
        await accounts.locator('[data-account="carol"]').getByRole('button', { name: '账号「carol」的登录' }).click();
        await expect.poll(() => accounts.getByTestId('account-logins').textContent(), SLOW).toContain('密码登录');
        await expect.poll(() => view.getByTestId('usage').textContent(), SLOW).toContain('导出 CSV');
        await expect.poll(() => view.getByTestId('logs-section').textContent(), SLOW).toContain('实时跟随');
        // Nothing wider than the screen on a phone.
        const overflow = await view.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await accounts.scrollIntoViewIfNeeded();
        await view.screenshot({ path: join(SHOTS, `console-accounts-${name}.png`), fullPage: true });
      }
    },
    TIMEOUT,
  );
});
