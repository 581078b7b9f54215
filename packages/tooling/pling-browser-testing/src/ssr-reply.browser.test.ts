// A reply in server-rendered HTML (Vue 3 and React docks): the text is there before any script runs (escaped, as
// plain text), and after hydration it is the sanitised Markdown, with no hydration complaint.
import { describe, expect, it } from 'vitest';
import { chromiumPerFile, PACKAGES } from './chromium-per-file.case.js';

const FIXTURES = {
  'Vue 3': new URL('pling-vue/src/fixtures/ssr-hydrate.case.ts', PACKAGES),
  React: new URL('pling-react/src/fixtures/ssr-hydrate.case.tsx', PACKAGES),
};

describe('a reply rendered on the server, then hydrated', { timeout: 120_000 }, () => {
  const chromium = chromiumPerFile();

  for (const [name, entry] of Object.entries(FIXTURES)) {
    it(`${name}: the server's HTML has the reply's text; hydrated, it is Markdown`, async () => {
      const fixture = await chromium.openFixture({ entry });
      const { page } = fixture;
      await page.locator('#ssr [data-pling="text"] strong').waitFor();
      const serverHtml = await page.evaluate(() => (globalThis as { serverHtml?: string }).serverHtml);
      expect(serverHtml).toContain('Order **#1007** is on its way.');
      expect(await page.locator('#ssr strong').textContent()).toBe('#1007');
      expect(await page.locator('#ssr [data-pling="text"]').getAttribute('data-format')).toBe('markdown');
      expect(fixture.errors).toEqual([]);
    });
  }
});
