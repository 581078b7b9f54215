// Regenerates docs/screenshots/pling/: each Pling dock (vanilla, Vue 3, React, Vue 2.7) on the orders page of the
// dock UX suite, in zh-CN and en, at desktop (1280×800) and phone (390×844) width, mid-conversation — a person's
// message, a Markdown reply with a table, and a dangerous action waiting for confirmation — plus an error with its
// retry (zh-CN, desktop), the thinking state (en, phone) and the closed launcher on a phone. Real Chromium against the scripted model server, as the browser tests run it.
//
//   npm run screenshots            (all adapters)
//   npm run screenshots -- react   (one)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { errorReply, type ScriptedReply, textReply, toolCallReply } from '@aalis/testing';
import { launchChromium, type OpenedFixture, openFixture, type Page } from '@plingjs/browser-testing';
import {
  type DockAdapterName,
  SCREENSHOT_DIR,
  screenshotName,
} from '../packages/tooling/pling-browser-testing/src/dock-ux/dock-ux-suite.case.js';

const root = join(import.meta.dirname, '..');
const ADAPTERS: Record<DockAdapterName, string> = {
  vanilla: 'packages/pling/pling-vanilla/src/fixtures/dock-ux.case.ts',
  vue: 'packages/pling/pling-vue/src/fixtures/dock-ux.case.ts',
  react: 'packages/pling/pling-react/src/fixtures/dock-ux.case.tsx',
  vue2: 'packages/pling/pling-vue2/src/fixtures/dock-ux.case.ts',
};
const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

const SCENE = {
  'zh-CN': {
    ask: '#1007 到哪了？把发票发到我邮箱。',
    reply: [
      '**#1007 降噪耳机**正在配送，预计明天送达。',
      '',
      '| 时间 | 进度 |',
      '|---|',
      '| 今天 09:12 | 已到达本市分拣中心 |',
      '| 昨天 18:40 | 已发货 |',
      '',
      '发票需要你确认后再发送。',
    ].join('\n'),
  },
  en: {
    ask: 'Where is #1007? Please email me the invoice.',
    reply: [
      '**#1007 Noise-cancelling headphones** is on its way and should arrive tomorrow.',
      '',
      '| When | Progress |',
      '|---|',
      '| Today 09:12 | At the local sorting centre |',
      '| Yesterday 18:40 | Shipped |',
      '',
      'The invoice goes out once you confirm.',
    ].join('\n'),
  },
};

async function scene(page: Page, fixture: OpenedFixture, locale: 'zh-CN' | 'en'): Promise<void> {
  await page.goto(`${fixture.url}?locale=${locale}`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.locator('[data-pling="dock"]').waitFor();
  const { ask, reply } = SCENE[locale];
  fixture.modelServer.enqueue(
    toolCallReply([{ name: 'email_invoice', arguments: { to: '[redacted:email]', order: '#1007' } }], {
      text: reply,
    }),
  );
  await page.locator('[data-pling="input"]').fill(ask);
  await page.locator('[data-pling="input"]').press('Enter');
  await page.locator('[data-pling="confirmation"]').waitFor();
  await page.locator('[data-pling="message"][data-role="assistant"] table').waitFor();
  // Caret and focus ring as a person would see them a moment later; no animation frame mid-way.
  await page.waitForTimeout(300);
}

async function shoot(page: Page, name: string): Promise<void> {
  const file = join(SCREENSHOT_DIR, name);
  await page.screenshot({ path: file, animations: 'disabled' });
  process.stdout.write(`${file}\n`);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2) as DockAdapterName[];
  const adapters = (Object.keys(ADAPTERS) as DockAdapterName[]).filter(
    (name) => wanted.length === 0 || wanted.includes(name),
  );
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const browser = await launchChromium();
  try {
    for (const adapter of adapters) {
      const fixture = await openFixture({ entry: join(root, ADAPTERS[adapter]), browser, title: adapter });
      try {
        const { page } = fixture;
        for (const locale of ['zh-CN', 'en'] as const) {
          for (const [width, size] of Object.entries(WIDTHS) as Array<[keyof typeof WIDTHS, typeof WIDTHS.phone]>) {
            await page.setViewportSize(size);
            await scene(page, fixture, locale);
            const file = join(SCREENSHOT_DIR, screenshotName(adapter, locale, width));
            await page.screenshot({ path: file, animations: 'disabled' });
            process.stdout.write(`${file}\n`);
            // Settle the waiting action so the next scene starts from an empty queue.
            fixture.modelServer.enqueue(textReply(locale === 'en' ? 'Not sent.' : '没有发送。'));
            await page.locator('[data-pling="reject"]').click();
            await page.waitForTimeout(200);
          }
        }
        // An error as the person sees it (zh-CN, desktop), then the thinking state (en, phone).
        await page.setViewportSize(WIDTHS.desktop);
        await page.goto(`${fixture.url}?locale=zh-CN`);
        await page.evaluate(() => localStorage.clear());
        fixture.modelServer.enqueue(errorReply(503, 'upstream unavailable'));
        await page.locator('[data-pling="input"]').fill('帮我把 #1006 退货');
        await page.locator('[data-pling="input"]').press('Enter');
        await page.locator('[data-pling="retry"]').waitFor();
        await shoot(page, `${adapter}-zh-CN-error.png`);
        await page.setViewportSize(WIDTHS.phone);
        await page.goto(`${fixture.url}?locale=en`);
        fixture.modelServer.enqueue({
          ...(textReply('Done.') as Extract<ScriptedReply, { type: 'stream' }>),
          headersDelayMs: 2_000,
        });
        await page.locator('[data-pling="input"]').fill('Return #1006, please.');
        await page.locator('[data-pling="input"]').press('Enter');
        await page.locator('[data-pling="thinking"]').waitFor();
        await shoot(page, `${adapter}-en-phone-thinking.png`);
        await page.locator('[data-pling="message"][data-role="assistant"]').waitFor();
        fixture.errors.splice(0); // Chromium's "Failed to load resource" for the 503 above

        await page.setViewportSize(WIDTHS.phone);
        await page.goto(`${fixture.url}?locale=zh-CN`);
        await page.locator('[data-pling="close"]').click();
        await page.locator('[data-pling="launcher"]').waitFor();
        await shoot(page, `${adapter}-zh-CN-phone-closed.png`);
        await page.evaluate(() => localStorage.clear());
        if (fixture.errors.length > 0) throw new Error(`${adapter}: the page reported ${fixture.errors.join('; ')}`);
      } finally {
        await fixture.close();
      }
    }
  } finally {
    await browser.close();
  }
}

await main();
