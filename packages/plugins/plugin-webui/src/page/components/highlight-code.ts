// Highlights the code blocks of rendered Markdown with highlight.js (core plus the languages models write most),
// only for blocks that name a known language: guessing costs time and often guesses wrong.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = {
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);

const highlighted = new WeakMap<Element, string>();

/** Highlights every `pre > code.language-x` under `root` whose text changed since it was last highlighted. */
export function highlightCodeBlocks(root: Element): void {
  for (const code of root.querySelectorAll('pre > code')) {
    const language = /(?:^|\s)language-([\w+#.-]+)/.exec(code.className)?.[1]?.toLowerCase();
    const text = code.textContent ?? '';
    if (!language || !hljs.getLanguage(language)) continue;
    // A morph back to the plain rendering drops the class; then the block is highlighted again.
    if (highlighted.get(code) === text && code.classList.contains('hljs')) continue;
    // hljs escapes the text it returns; the markup it adds is <span class="hljs-…"> only.
    code.innerHTML = hljs.highlight(text, { language, ignoreIllegals: true }).value;
    code.classList.add('hljs');
    highlighted.set(code, text);
  }
}
