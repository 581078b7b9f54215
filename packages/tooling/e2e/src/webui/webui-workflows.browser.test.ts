// The 工作流 page in Debian Chromium against a real `aalis serve`: a workflow written in the page's editor is
// checked as it is typed (a problem names its line), saved once valid, shown as a graph, run with inputs; 「最近运行」
// shows every step's state and output; a waiting run is cancelled. zh-CN and en, desktop and phone; screenshots in
// docs/screenshots/webui/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { textReply } from '@aalis/testing';
import type { BrowserContext, Page } from '@plingjs/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedWebui, serveWebui } from './serve-webui.case.js';

const TIMEOUT = 90_000;
const SLOW = { timeout: 15_000 };
const SHOTS = join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'screenshots', 'webui');

const REPORT = `description: Multiply, check, and ask her to say it
inputs:
  a: { type: number, default: 6 }
nodes:
  - id: product
    kind: tool
    tool: calculator
    arguments: { expression: "{{ inputs.a }} * 7" }
  - id: big
    kind: condition
    needs: [product]
    if: "$number($match(nodes.product.output, /-?[0-9.]+/)[0].match) > 10"
  - id: say
    kind: agent
    needs: [big]
    when: nodes.big.output
    session: workflow-demo
    task: "Say the result {{ nodes.product.output }} in one sentence."
`;

const WAITS = `nodes:
  - id: pause
    kind: wait
    duration: 1h
`;

let served: ServedWebui;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  served = await serveWebui();
  context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept(dialog.type() === 'prompt' ? pendingName : undefined));
  mkdirSync(SHOTS, { recursive: true });
}, TIMEOUT);

afterAll(async () => {
  await context?.close();
  await served?.stop();
}, TIMEOUT);

let pendingName = '';

async function newWorkflow(name: string, source: string) {
  pendingName = name;
  await page.getByTestId('workflow-new').click();
  const editor = page.getByTestId('workflow-source');
  await editor.fill(source);
}

describe('the workflows page', () => {
  it(
    'checks a workflow as it is typed, saves it, shows its graph, runs it and shows every step',
    async () => {
      await page.goto(served.link);
      // The page lands in a new chat once it has loaded the sessions; a page opened before that was closed again by it.
      await page.getByTestId('new-chat').waitFor();
      await page.getByTestId('open-workflows').click();
      await page.getByTestId('workflows').waitFor();
      // A problem is shown with its line while typing; Save stays off until it is fixed.
      await newWorkflow('report', REPORT.replace('kind: condition', 'kind: conditional'));
      const problem = page.getByTestId('workflow-problem').first();
      await expect.poll(() => problem.getAttribute('data-line'), SLOW).toBe('10');
      expect(await problem.textContent()).toContain('Line 10');
      expect(await page.getByTestId('workflow-save').isDisabled()).toBe(true);
      await page.getByTestId('workflow-source').fill(REPORT);
      await expect.poll(() => page.getByTestId('workflow-problem').count(), SLOW).toBe(0);
      await page.getByTestId('workflow-save').click();
      await expect.poll(() => page.locator('[data-testid="workflow-graph"] .workflow-node').count(), SLOW).toBe(3);
      expect(await page.getByTestId('workflow-item').allTextContents()).toEqual([expect.stringContaining('report')]);

      served.model.enqueue(textReply('Six times seven is forty-two.'));
      await page.getByTestId('workflow-inputs').fill('{"a": 6}');
      await page.getByTestId('workflow-run-button').click();
      const run = page.getByTestId('workflow-run');
      await expect.poll(() => run.getAttribute('data-status'), SLOW).toBe('succeeded');
      const status = (step: string) =>
        page.locator(`[data-testid="workflow-step"][data-step="${step}"]`).getAttribute('data-status');
      expect(await status('product')).toBe('succeeded');
      expect(await status('big')).toBe('succeeded');
      expect(await status('say')).toBe('succeeded');
      expect(await page.locator('[data-step="say"]').textContent()).toContain('Six times seven is forty-two.');
      expect(await page.locator('.workflow-node[data-node="say"]').getAttribute('data-status')).toBe('succeeded');
      await page.screenshot({ path: join(SHOTS, 'workflows-en.png'), fullPage: true });
    },
    TIMEOUT,
  );

  it(
    'cancels a waiting run from 「最近运行」, in Chinese, on a phone',
    async () => {
      await page.evaluate(() => localStorage.setItem('aalis.webui.locale', 'zh-CN'));
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${new URL(served.link).origin}/`);
      await page.getByTestId('new-chat').waitFor();
      // On a phone the other pages are in the session drawer.
      await page.getByTestId('menu').click();
      await page.getByTestId('open-workflows').click();
      // The page opens on the saved workflow once it has loaded: a new one typed before that was replaced by it (its
      // text gone, Save off for good), as a run on a loaded machine showed.
      await page
        .locator('[data-testid="workflow-item"].selected', { hasText: 'report' })
        .waitFor({ state: 'attached' });
      await newWorkflow('waits', WAITS);
      await expect.poll(() => page.getByTestId('workflow-save').isDisabled(), SLOW).toBe(false);
      await page.getByTestId('workflow-save').click();
      await page.getByTestId('workflow-run-button').click();
      const row = page.getByTestId('workflow-run-row').first();
      await expect.poll(() => row.getAttribute('data-status'), SLOW).toBe('running');
      await row.getByRole('button', { name: '取消' }).click();
      await expect.poll(() => row.getAttribute('data-status'), SLOW).toBe('cancelled');
      expect(await row.textContent()).toContain('已取消');
      await page.locator('[data-testid="workflow-run-row"] .link-button').first().click();
      await expect
        .poll(() => page.locator('[data-testid="workflow-step"][data-step="pause"]').getAttribute('data-status'), SLOW)
        .toBe('cancelled');
      await page.screenshot({ path: join(SHOTS, 'workflows-phone-zh-CN.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByTestId('workflow-item').filter({ hasText: 'report' }).click();
      // Selecting loads the workflow and its runs, then shows them with no run open: a run clicked in the list
      // before that (still the other workflow's) would be closed again by it.
      await page.locator('[data-testid="workflow-item"].selected', { hasText: 'report' }).waitFor();
      await page.locator('[data-testid="workflow-run-row"] .link-button').first().click();
      await page.getByTestId('workflow-run').waitFor();
      await page.screenshot({ path: join(SHOTS, 'workflows-zh-CN.png'), fullPage: true });
    },
    TIMEOUT,
  );
});
