// Regenerates docs/screenshots/webui/: the WebUI in zh-CN and en, desktop and phone, against a real `aalis serve`
// and the scripted model server (a conversation with Markdown, a mended table, code, reasoning, a tool card and a
// stopped turn). Run: `npm run screenshots -w @aalis/plugin-webui`. Needs Debian's chromium and fonts-noto-cjk.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type OneBotImplementation,
  onebotGroupMessage,
  startOneBotImplementation,
  textReply,
  toolCallReply,
} from '@aalis/testing';
import type { Page } from '@plingjs/browser-testing';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const OUT = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');

const SCRIPT = {
  en: {
    ask: 'Compare the two plans and check the total.',
    reasoning: 'Two plans; add the monthly prices with the calculator, then lay them out in a table.',
    reply:
      'Here is the comparison:\n\n| Plan | Monthly | Storage |\n|-|-:|\n| Basic | 12 | 100 GB |\n| Pro | 30 | 1 TB |\n\nTogether they cost **42** a month. To check it yourself:\n\n```python\nprint(12 + 30)  # 42\n```',
    stopAsk: 'Now write me a long essay about storage.',
    stopPartial: 'Storage has a long history, ',
    last: 'What did the calculator say?',
    lastReply: 'It said `42`, the sum of both plans.',
    regenerated: 'The calculator said **42**: 12 for Basic plus 30 for Pro.',
    earlier: 'Plan a quiet weekend in the mountains',
    roomSender: 'Boss',
    roomAsk: ' what time is it?',
    roomAside: 'Let me look at the clock. ',
    roomReply: 'It is just after five.',
    earlierReply:
      'Friday evening: drive up. Saturday: a long walk and an early night. Sunday: breakfast outside, home by four.',
  },
  'zh-CN': {
    ask: '比较这两个套餐，顺便核对一下合计。',
    reasoning: '两个套餐，先用计算器把月费加起来，再列成表。',
    reply:
      '对比如下：\n\n| 套餐 | 月费 | 存储 |\n|-|-:|\n| 基础版 | 12 | 100 GB |\n| 专业版 | 30 | 1 TB |\n\n两个合计每月 **42**。想自己核对的话：\n\n```python\nprint(12 + 30)  # 42\n```',
    stopAsk: '再写一篇关于存储的长文。',
    stopPartial: '存储的历史很长，',
    last: '计算器算出来是多少？',
    lastReply: '是 `42`，两个套餐的月费之和。',
    regenerated: '计算器算出 **42**：基础版 12 加专业版 30。',
    earlier: '帮我安排一个安静的山里周末',
    roomSender: '老板',
    roomAsk: ' 现在几点了?',
    roomAside: '我看一下时间。',
    roomReply: '刚过五点。',
    earlierReply: '周五晚上开车上山；周六走一条长路线，早点睡；周日在外面吃早饭，四点前到家。',
  },
} as const;

/** Opens a new chat (its session comes with the first message) and waits until the page shows it. */
async function newSession(page: Page): Promise<void> {
  await page.getByTestId('new-session').click();
  await settle(page, 'a new chat', async () => (await page.getByTestId('new-chat').count()) === 1);
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('composer-text').fill(text);
  await page.getByTestId('composer-text').press('Enter');
}

async function settle(page: Page, what: string, predicate: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await predicate()) return;
    await page.waitForTimeout(100);
  }
  const shot = join(tmpdir(), 'webui-screenshot-failed.png');
  await page.screenshot({ path: shot });
  throw new Error(`the page did not reach the expected state: ${what} (the page as it was: ${shot})`);
}

async function scene(served: ServedWebui, onebot: OneBotImplementation, locale: 'en' | 'zh-CN'): Promise<void> {
  const lines = SCRIPT[locale];
  const context = await served.browser.newContext({ viewport: { width: 1280, height: 1000 }, locale });
  const page = await context.newPage();
  await page.goto(served.link);
  // Where a login lands: a new chat, ready to type.
  await settle(page, 'the new chat', async () => (await page.getByTestId('new-chat').count()) === 1);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(OUT, `new-chat-${locale}.png`) });
  // A room on QQ (OneBot): her words beside a tool call were never sent to the group (「未发出」).
  served.model.enqueue(
    toolCallReply([{ id: 'call_time', name: 'current_time', arguments: {} }], { text: lines.roomAside }),
    textReply(lines.roomReply),
  );
  onebot.push(
    onebotGroupMessage({
      groupId: 555,
      userId: 42,
      card: lines.roomSender,
      message: [
        { type: 'at', data: { qq: '10000' } },
        { type: 'text', data: { text: lines.roomAsk } },
      ],
    }),
  );
  const roomRow = page.locator('[data-testid="session-row"]', { has: page.locator('.badge', { hasText: 'onebot' }) });
  await roomRow.waitFor({ timeout: 20_000 });
  await roomRow.locator('.session-open').click();
  await settle(
    page,
    'room replied',
    async () => (await page.locator('[data-testid="turn"][data-outcome="replied"]').count()) === 1,
  );
  await settle(page, 'room unsent', async () => (await page.getByTestId('unsent').count()) === 1);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(OUT, `room-${locale}.png`) });
  // An earlier session, so the list shows more than one.
  await newSession(page);
  served.model.enqueue(textReply(lines.earlierReply));
  await send(page, lines.earlier);
  await settle(
    page,
    'earlier replied',
    async () => (await page.locator('[data-testid="turn"][data-outcome="replied"]').count()) === 1,
  );
  await newSession(page);
  served.model.enqueue(
    toolCallReply([{ id: 'call_sum', name: 'calculator', arguments: { expression: '12+30' } }]),
    textReply(lines.reply, {
      reasoning: lines.reasoning,
      usage: { promptTokens: 560, completionTokens: 120, cachedTokens: 384 },
    }),
  );
  await send(page, lines.ask);
  await settle(
    page,
    'first replied',
    async () => (await page.locator('[data-testid="turn"][data-outcome="replied"]').count()) === 1,
  );
  served.model.enqueue({
    type: 'stream',
    steps: [{ role: 'assistant' }, { text: lines.stopPartial }, { flush: true }, { delayMs: 30_000 }, { done: true }],
  });
  await send(page, lines.stopAsk);
  await page.getByTestId('stop').waitFor();
  await page.waitForTimeout(300);
  await page.getByTestId('stop').click();
  await settle(
    page,
    'stopped',
    async () => (await page.locator('[data-testid="turn"][data-outcome="aborted"]').count()) === 1,
  );
  served.model.enqueue(
    textReply(lines.lastReply, { usage: { promptTokens: 640, completionTokens: 20, cachedTokens: 512 } }),
  );
  await send(page, lines.last);
  await settle(
    page,
    'second replied',
    async () => (await page.locator('[data-testid="turn"][data-outcome="replied"]').count()) === 2,
  );
  // Her last reply regenerated: the earlier version stays behind 「‹ 1/2 ›」.
  served.model.enqueue(textReply(lines.regenerated));
  await page.getByTestId('regenerate').click();
  await settle(page, 'regenerated', async () => (await page.getByTestId('version-position').count()) === 1);
  await settle(
    page,
    'regenerated reply',
    async () => (await page.locator('[data-testid="turn"][data-outcome="replied"]').count()) === 2,
  );
  await page.locator('[data-testid="tool-card"] summary').first().click();
  // Reasoning shows when the history kept it (the timeline the regenerate brought may not carry it).
  if ((await page.locator('[data-testid="reasoning"] summary').count()) > 0)
    await page.locator('[data-testid="reasoning"] summary').first().click();
  await page.mouse.move(0, 0);
  await page.getByTestId('conversation').evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await page.screenshot({ path: join(OUT, `desktop-${locale}.png`) });
  if (locale === 'en') {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(OUT, 'desktop-dark-en.png') });
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await page.getByTestId('tab-usage').click();
  await page.getByTestId('usage-panel').waitFor();
  await page.screenshot({ path: join(OUT, `usage-${locale}.png`) });
  // The / palette, then a session's menu.
  await page.getByTestId('composer-text').fill('');
  await page.getByTestId('composer-text').pressSequentially('/');
  await page.getByTestId('command-palette').getByTestId('command-option').first().waitFor();
  await page.screenshot({ path: join(OUT, `palette-${locale}.png`) });
  await page.getByTestId('composer-text').fill('');
  const sessionId = new URL(page.url()).searchParams.get('session') ?? '';
  await page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`).hover();
  await page
    .locator(`[data-testid="session-row"][data-session-id="${sessionId}"] [data-testid="session-more"]`)
    .click();
  await page.getByTestId('session-menu').waitFor();
  await page.screenshot({ path: join(OUT, `session-menu-${locale}.png`) });
  await page.keyboard.press('Escape');
  await page.getByTestId('open-admin').click();
  await page.getByTestId('plugins').locator('tbody tr').first().waitFor();
  await page.screenshot({ path: join(OUT, `admin-${locale}.png`) });

  const phone = await served.browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    locale,
  });
  const small = await phone.newPage();
  await small.goto(await served.freshLink());
  await small.getByTestId('new-chat').waitFor();
  await small.goto(`${served.origin}/?session=${encodeURIComponent(sessionId)}`);
  await small.locator('[data-testid="conversation"][data-loaded="true"]').waitFor();
  // The conversation scrolls to its end after the next frame.
  await small.waitForTimeout(500);
  await small.screenshot({ path: join(OUT, `phone-${locale}.png`) });
  await small.getByTestId('menu').click();
  await small.waitForTimeout(300);
  await small.screenshot({ path: join(OUT, `phone-sessions-${locale}.png`) });
  await phone.close();
  await context.close();
}

mkdirSync(OUT, { recursive: true });
for (const locale of ['zh-CN', 'en'] as const) {
  const onebot = await startOneBotImplementation({ selfId: 10_000 });
  const served = await serveWebui({ locale, extraConfig: `  platform-onebot: { url: ${onebot.url} }\n` });
  try {
    await onebot.connected();
    await scene(served, onebot, locale);
  } finally {
    await served.stop();
    await onebot.close();
  }
  process.stdout.write(`screenshots (${locale}) in ${OUT}\n`);
}
