// @vitest-environment jsdom
// morphdom reads the page's globals (HTMLElement …), so this file runs in a jsdom environment.
import { describe, expect, it } from 'vitest';
import { renderMarkdownInto } from './render-markdown-into.js';

describe('renderMarkdownInto (streaming)', () => {
  it('keeps the nodes of what did not change while a reply grows, and only the growing text changes', () => {
    const element = document.createElement('div');
    document.body.append(element);
    renderMarkdownInto(element, 'First paragraph.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSec');
    const paragraph = element.querySelector('p');
    const cell = element.querySelector('td');
    const records: string[] = [];
    const observer = new MutationObserver((list) => {
      for (const record of list) records.push(record.type);
    });
    observer.observe(element, { subtree: true, childList: true, characterData: true, attributes: true });
    renderMarkdownInto(element, 'First paragraph.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSecond');
    records.push(...observer.takeRecords().map((record) => record.type));
    expect(element.querySelector('p')).toBe(paragraph);
    expect(element.querySelector('td')).toBe(cell);
    expect(element.querySelectorAll('p')[1]?.textContent).toBe('Second');
    expect(records).toEqual(['characterData']);
  });

  it('an unfinished code fence renders as code while it streams, and the element keeps its own attributes', () => {
    const element = document.createElement('div');
    element.setAttribute('data-pling', 'text');
    renderMarkdownInto(element, '```js\nlet a');
    expect(element.innerHTML).toBe('<pre><code class="language-js">let a\n</code></pre>');
    renderMarkdownInto(element, '<script>x()</script>');
    expect(element.getAttribute('data-pling')).toBe('text');
    expect(element.querySelector('script')).toBeNull();
  });
});
