import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { RenderMarkdownError } from './errors.js';
import { renderMarkdown, renderMarkdownFragment } from './render-markdown.js';

const { window } = new JSDOM('<!doctype html><body></body>');
const render = (text: string) => renderMarkdown(text, { window: window as never });

describe('renderMarkdown', () => {
  it('renders paragraphs, emphasis, lists, code blocks with their language and line breaks', () => {
    expect(render('**bold** and *it*\nnext line')).toBe('<p><strong>bold</strong> and <em>it</em><br>next line</p>');
    expect(render('- one\n- two')).toBe('<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    expect(render('```ts\nconst a = 1 < 2;\n```')).toBe(
      '<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>',
    );
    expect(render('`x`')).toBe('<p><code>x</code></p>');
  });

  it('renders tables, mending a malformed separator row (and not when mendTables is false)', () => {
    const html = render('| Order | Total |\n|---|\n| 7 | 12 € |');
    expect(html).toContain('<table>');
    expect(html).toContain('<th>Order</th>');
    expect(html).toContain('<td>12 €</td>');
    expect(
      renderMarkdown('| Order | Total |\n|---|\n| 7 | 12 € |', { window: window as never, mendTables: false }),
    ).not.toContain('<table>');
    expect(render('| a | b |\n|:-:|--:|\n| <br> | x |')).toContain('<td align="center"><br></td>');
  });

  it('links open in a new tab with noopener noreferrer; javascript:, data: and vbscript: URLs lose their href', () => {
    expect(render('[docs](https://example.com/a?b=1)')).toBe(
      '<p><a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">docs</a></p>',
    );
    expect(render('see https://example.com')).toContain('href="https://example.com" target="_blank"');
    expect(render('[orders](/orders/7)')).toContain('href="/orders/7"');
    expect(render('[mail](mailto:a@example.com)')).toContain('href="mailto:a@example.com"');
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x']) {
      const html = render(`[click](${url})`);
      expect(html, url).not.toMatch(/href=/);
      expect(html, url).not.toMatch(/javascript|vbscript|data:/i);
    }
  });

  it('shows raw HTML as text and turns images into links, so nothing runs and nothing is fetched', () => {
    const html = render('<img src="x" onerror="alert(1)"> <script>alert(2)</script> <b>hi</b>');
    expect(html).not.toMatch(/<img|<script|<b>/);
    expect(html).toContain('&lt;img src="x" onerror="alert(1)"&gt;');
    expect(render('![a chart](https://evil.example/leak?secret=1)')).toBe(
      '<p><a href="https://evil.example/leak?secret=1" target="_blank" rel="noopener noreferrer">a chart</a></p>',
    );
    expect(render('<div>\n\n**x**\n\n</div>')).not.toContain('<div>');
  });

  it('keeps task list checkboxes disabled and strips classes other than a code language', () => {
    expect(render('- [x] done\n- [ ] todo')).toMatch(/<input (checked="" )?disabled="" type="checkbox"|<input/);
    const tasks = window.document.createElement('div');
    tasks.innerHTML = render('- [x] done\n- [ ] todo');
    expect([...tasks.querySelectorAll('input')].map((input) => [input.type, input.disabled, input.checked])).toEqual([
      ['checkbox', true, true],
      ['checkbox', true, false],
    ]);
    expect(render('```evil" onclick="x\ncode\n```')).not.toContain('onclick');
  });

  it('throws RENDER_MARKDOWN_NO_DOM without a DOM, worded in both languages', () => {
    let thrown: unknown;
    try {
      renderMarkdown('hi');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RenderMarkdownError);
    expect((thrown as RenderMarkdownError).code).toBe('RENDER_MARKDOWN_NO_DOM');
    expect((thrown as RenderMarkdownError).localized('zh-CN')).toMatch(
      /^RENDER_MARKDOWN_NO_DOM: 渲染 Markdown 需要 DOM/,
    );
  });

  it('renderMarkdownFragment gives the same markup as nodes', () => {
    const fragment = renderMarkdownFragment('a [b](https://x.example)', { window: window as never });
    const holder = window.document.createElement('div');
    holder.append(fragment);
    expect(holder.innerHTML).toBe(render('a [b](https://x.example)'));
  });
});
