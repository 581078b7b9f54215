import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createPageServer, errorPage } from './static-page.js';
import './server-texts.js';

const dir = mkdtempSync(join(tmpdir(), 'aalis-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function appFor(webRoot: string): Hono {
  const page = createPageServer({ webRoot, locale: 'en', warn: () => {} });
  const app = new Hono();
  app.get('*', (c) => page.serve(c));
  return app;
}

describe('the page', () => {
  it('serves the built files, index.html for client routes, 404 for missing assets, with the CSP', async () => {
    const root = join(dir, 'built');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><p>page</p>');
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    const app = appFor(root);
    const index = await app.request('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await index.text()).toContain('page');
    expect(await (await app.request('/assets/app.js')).text()).toBe('console.log(1)');
    expect(await (await app.request('/sessions/abc')).text()).toContain('page');
    expect((await app.request('/assets/missing.js')).status).toBe(404);
    for (const path of ['/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fetc%2fpasswd']) {
      expect(await (await app.request(path)).text(), path).not.toContain('root:');
    }
  });

  it('answers a plain "WebUI not built" page when there is no built page, and serves it once it is built', async () => {
    const root = join(dir, 'built-later');
    const app = appFor(root);
    const response = await app.request('/');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('WebUI not built');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><p>built now</p>');
    const later = await app.request('/');
    expect(later.status).toBe(200);
    expect(await later.text()).toContain('built now');
  });
});

describe('the error page', () => {
  it('is a sentence as the heading, the fix below and the code in small print', () => {
    const html = errorPage(
      'zh-CN',
      'AALIS_WEBUI_LINK_USED',
      '这个登录链接已经用过了，每个链接只能用一次。请运行 `aalis webui-link` 取一个新的。',
    );
    expect(html).toContain('<h1>这个登录链接已经用过了，每个链接只能用一次。</h1>');
    expect(html).toContain('<p>请运行 <code>aalis webui-link</code> 取一个新的。</p>');
    expect(html).toContain('<small>错误代码： <code>AALIS_WEBUI_LINK_USED</code></small>');
    expect(html).not.toContain('<h1>AALIS_WEBUI_LINK_USED</h1>');
    const english = errorPage(
      'en',
      'AALIS_WEBUI_LINK_USED',
      'This login link was used already; each link works once. Run `aalis webui-link` for a fresh one.',
    );
    expect(english).toContain('<h1>This login link was used already; each link works once.</h1>');
    expect(english).toContain('lang="en"');
  });
});
