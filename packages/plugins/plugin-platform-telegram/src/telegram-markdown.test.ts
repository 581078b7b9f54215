import { describe, expect, it } from 'vitest';
import { markdownToTelegramHtml } from './telegram-markdown.js';

describe('markdownToTelegramHtml', () => {
  it('maps emphasis, code, links and code blocks to the tags the Bot API accepts', () => {
    expect(markdownToTelegramHtml('**bold** _it_ ~~gone~~ `a<b`')).toBe(
      '<b>bold</b> <i>it</i> <s>gone</s> <code>a&lt;b</code>',
    );
    expect(markdownToTelegramHtml('[site](https://example.com/?a=1&b=2)')).toBe(
      '<a href="https://example.com/?a=1&amp;b=2">site</a>',
    );
    expect(markdownToTelegramHtml('```ts\nconst a = 1 < 2;\n```')).toBe(
      '<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>',
    );
  });

  it('never lets a javascript: link or raw HTML through', () => {
    expect(markdownToTelegramHtml('[x](javascript:alert(1))')).toBe('x');
    expect(markdownToTelegramHtml('<script>alert(1)</script> hi')).not.toContain('<script>');
  });

  it('renders headings, lists and tables as plain lines', () => {
    expect(markdownToTelegramHtml('# Title\n\n- one\n- two\n\n1. a\n2. b')).toBe(
      '<b>Title</b>\n\n• one\n• two\n\n1. a\n2. b',
    );
    expect(markdownToTelegramHtml('| a | b |\n|---|---|\n| 1 | 2 |')).toBe('<b>a | b</b>\n1 | 2');
  });

  it('keeps quotes and apostrophes as characters', () => {
    expect(markdownToTelegramHtml(`It's "fine" & good`)).toBe(`It's "fine" &amp; good`);
  });
});
