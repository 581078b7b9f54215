// Browser side of the markdown bench: renders a streamed reply delta by delta, morphing (renderMarkdownInto) or
// replacing innerHTML, and reports the milliseconds taken.
import { renderMarkdown, renderMarkdownInto } from '@aalis/render-markdown';

function section(index: number): string {
  return [
    `## Order #${1000 + index}`,
    '',
    `The parcel left the warehouse on **day ${index}** and is *on its way*; see [tracking](https://example.com/${index}).`,
    '',
    '| Step | When | Where |',
    '|---|---|',
    `| Shipped | 09:${10 + index} | Warehouse ${index} |`,
    `| Sorted | 13:${20 + index} | Hub ${index} |`,
    '',
    '```ts',
    `track('#${1000 + index}', { notify: true });`,
    '```',
    '',
  ].join('\n');
}

function run(sections: number, mode: 'morph' | 'replace'): { characters: number; deltas: number; ms: number } {
  const reply = Array.from({ length: sections }, (_, index) => section(index)).join('\n');
  const element = document.createElement('div');
  document.body.append(element);
  const started = performance.now();
  let deltas = 0;
  for (let at = 4; at <= reply.length; at += 4, deltas++) {
    const text = reply.slice(0, at);
    if (mode === 'morph') renderMarkdownInto(element, text);
    else element.innerHTML = renderMarkdown(text);
  }
  const ms = performance.now() - started;
  element.remove();
  return { characters: reply.length, deltas, ms };
}

(globalThis as { runBench?: typeof run }).runBench = run;
