// npm run bench placeholders: the cost of filling a catalogue text, which runs several times per turn.
// Baseline, measured in the same run: the regular expression with a callback per match that the scan replaced
// (`template.replace(/\{(\w+)\}/g, …)`). Figures: median nanoseconds per fill over 5 rounds of 1,000,000 fills.
// - a text with placeholders and no plural choice: the scan against the baseline (the choice must not cost it);
// - a text without any brace: the early return;
// - a text with a plural choice rendered for 1 and for 21, against the same text written with a plain {count}.
import { fillPlaceholders } from '../src/i18n.js';

type Params = Readonly<Record<string, string | number>>;

const byRegularExpression = (template: string, params: Params): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));

const ROUNDS = 5;
const FILLS = 1_000_000;

function medianNs(fill: (template: string, params: Params) => string, template: string, params: Params): number {
  let sink = 0;
  for (let i = 0; i < FILLS / 5; i++) sink += fill(template, params).length;
  const figures: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < FILLS; i++) sink += fill(template, params).length;
    figures.push(Number(process.hrtime.bigint() - start) / FILLS);
  }
  if (sink === 0) throw new Error('nothing was filled');
  return figures.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

const scan = (template: string, params: Params) => fillPlaceholders(template, params, 'en');
const plain = 'Tool {name} was not executed: {reason}';
const plainParams = { name: 'web_search', reason: 'the hook refused it' };
const baseline = medianNs(byRegularExpression, plain, plainParams);
const scanned = medianNs(scan, plain, plainParams);
console.log(`placeholders, no choice: scan ${scanned.toFixed(1)} ns, regular expression ${baseline.toFixed(1)} ns`);
console.log(`  ratio scan / regular expression: ${(scanned / baseline).toFixed(2)}`);

const noBrace = 'The previous turn had no reasoning';
console.log(`no brace: scan ${medianNs(scan, noBrace, { count: 1 }).toFixed(1)} ns`);

const plainCount = 'owner · {count} facts';
const choice = 'owner · {count, plural, one {# fact} other {# facts}}';
const withCount = medianNs(scan, plainCount, { count: 21 });
for (const count of [1, 21]) {
  const chosen = medianNs(scan, choice, { count });
  console.log(
    `plural choice for ${count}: ${chosen.toFixed(1)} ns; the same text with a plain {count}: ${withCount.toFixed(1)} ns`,
  );
  console.log(`  ratio choice / plain: ${(chosen / withCount).toFixed(2)}`);
}
