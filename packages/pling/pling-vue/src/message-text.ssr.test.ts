// Server-side rendering of a chat message: the reply's text is in the HTML (escaped plain text, as there is no
// DOM to sanitise Markdown with), the person's own words as text; the browser suites check the Markdown after.

import { describe, expect, it } from 'vitest';
import { createSSRApp, h } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { MessageText } from './message-text.js';

const render = (role: 'user' | 'assistant', text: string) =>
  renderToString(createSSRApp({ render: () => h(MessageText, { role, text }) }));

describe('MessageText on the server', () => {
  it('a reply is in the server-rendered HTML, escaped', async () => {
    expect(await render('assistant', 'Order **#1007** <img src=x>')).toBe(
      '<div class="pling-text" data-pling="text">Order **#1007** &lt;img src=x&gt;</div>',
    );
  });

  it("the person's own words too", async () => {
    expect(await render('user', 'a < b')).toBe(
      '<div class="pling-text" data-pling="text" data-format="text">a &lt; b</div>',
    );
  });
});
