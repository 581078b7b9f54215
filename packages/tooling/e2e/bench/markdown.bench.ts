// What rendering a streamed reply costs in Chromium: Markdown replies of ~1.3 kB and ~5 kB delivered in
// 4-character deltas (worse than real streams, which send a token or more per chunk), rendered after every delta
// the way the docks do (renderMarkdownInto: parse, sanitise, morph) against replacing innerHTML with
// renderMarkdown's output. Prints the time per delta and the ratio of the two.
import { launchChromium, openFixture } from '@plingjs/browser-testing';

type Run = (sections: number, mode: 'morph' | 'replace') => { characters: number; deltas: number; ms: number };

const browser = await launchChromium();
const fixture = await openFixture({ entry: new URL('./stream-page.case.ts', import.meta.url), browser });
try {
  for (const sections of [5, 20]) {
    const call = (mode: 'morph' | 'replace') =>
      fixture.page.evaluate(
        ([count, how]) => (globalThis as unknown as { runBench: Run }).runBench(count as number, how as 'morph'),
        [sections, mode] as const,
      );
    await call('morph'); // warm-up
    const morph = await call('morph');
    const replace = await call('replace');
    const per = (result: { deltas: number; ms: number }) => (result.ms / result.deltas).toFixed(3);
    console.log(
      `${morph.characters} characters, ${morph.deltas} deltas: morph ${per(morph)} ms/delta (${morph.ms.toFixed(0)} ms), ` +
        `replace ${per(replace)} ms/delta (${replace.ms.toFixed(0)} ms), ratio morph/replace ${(morph.ms / replace.ms).toFixed(2)}`,
    );
  }
} finally {
  await fixture.close();
  await browser.close();
}
