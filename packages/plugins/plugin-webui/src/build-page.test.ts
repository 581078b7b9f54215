import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWebuiPage, pageIsStale } from './build-page.js';

describe('buildWebuiPage', () => {
  const outDir = join(mkdtempSync(join(tmpdir(), 'webui-page-')), 'page');
  afterAll(() => rmSync(join(outDir, '..'), { recursive: true, force: true }));

  it('builds index.html with hashed assets the session server can serve, and is stale until built', async () => {
    expect(pageIsStale(outDir)).toBe(true);
    await buildWebuiPage({ outDir });
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(html).toContain('<div id="app"></div>');
    const scripts = [...html.matchAll(/src="\/assets\/([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    expect(existsSync(join(outDir, 'assets', scripts[0]!))).toBe(true);
    expect(readdirSync(join(outDir, 'assets')).some((file) => file.endsWith('.css'))).toBe(true);
    const script = readFileSync(join(outDir, 'assets', scripts[0]!), 'utf8');
    // The catalogue's zh-CN wording from the spec ships in the bundle.
    expect(script).toContain('停止');
    expect(script).toContain('未发出');
    expect(pageIsStale(outDir)).toBe(false);
  }, 60_000);
});
