// Fits the token-estimation weights against o200k (gpt-tokenizer) on the corpus and prints them as a TypeScript
// literal for src/token-weights.ts. Run: node --conditions=source --import tsx packages/shared/context-budget/bench/calibrate.ts
// Samples are the corpus lines; each class gets the same total weight so no class dominates the fit. A ridge term
// pulls each weight towards a hand-set prior, so features the corpus barely contains (kana, Hangul, emoji) keep
// sensible values. Letter pieces and punctuation runs are fitted as non-negative increments per extra char, so
// a longer piece never weighs less than a shorter one.
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { countTextFeatures, FEATURE, FEATURE_COUNT, MAX_PIECE, MAX_PUNCT_RUN } from '../src/text-features.js';
import { CORPUS_CLASSES, loadCorpus } from './corpus.js';

function prior(): Float64Array {
  const w = new Float64Array(FEATURE_COUNT);
  // Increments: a piece costs 1 token up to 5 letters, then 0.2 more per letter.
  for (let n = 1; n <= MAX_PIECE; n++) w[FEATURE.piece + n - 1] = n === 1 ? 1 : n <= 5 ? 0 : 0.2;
  w[FEATURE.extraLetter] = 0.25;
  w[FEATURE.nonAsciiLetter] = 0.2;
  w[FEATURE.digitGroup] = 1;
  for (let n = 1; n <= MAX_PUNCT_RUN; n++) w[FEATURE.punct + n - 1] = n === 1 ? 1 : 0.3;
  w[FEATURE.extraPunct] = 0.3;
  w[FEATURE.newlineRun] = 1;
  w[FEATURE.spaceRun] = 1;
  w[FEATURE.cjkChar] = 0.7;
  w[FEATURE.cjkRun] = 0.3;
  w[FEATURE.cjkPunct] = 1;
  w[FEATURE.kana] = 0.8;
  w[FEATURE.hangul] = 0.9;
  w[FEATURE.generalPunct] = 1;
  w[FEATURE.symbol] = 1;
  w[FEATURE.astral] = 1.5;
  return w;
}

interface Sample {
  corpusClass: string;
  file: string;
  features: Float64Array;
  tokens: number;
  weight: number;
}

const LINES_PER_SAMPLE = 6;
const files = loadCorpus();
const samples: Sample[] = [];
for (const file of files) {
  const lines = file.text.split(/(?<=\n)/);
  for (let start = 0; start < lines.length; start += LINES_PER_SAMPLE) {
    const chunk = lines.slice(start, start + LINES_PER_SAMPLE).join('');
    if (chunk.trim() === '') continue;
    const features = new Float64Array(FEATURE_COUNT);
    countTextFeatures(chunk, features);
    toIncrements(features);
    samples.push({ corpusClass: file.corpusClass, file: file.name, features, tokens: encode(chunk).length, weight: 0 });
  }
}

/** Turns the per-length histograms into "pieces (runs) of at least n" counts, fitted as increments. */
function toIncrements(features: Float64Array): void {
  for (const [start, size] of [
    [FEATURE.piece, MAX_PIECE],
    [FEATURE.punct, MAX_PUNCT_RUN],
  ] as const) {
    for (let n = size - 2; n >= 0; n--) features[start + n]! += features[start + n + 1]!;
  }
}

/** Back from increments to one weight per length. */
function fromIncrements(weights: Float64Array): Float64Array {
  const result = Float64Array.from(weights);
  for (const [start, size] of [
    [FEATURE.piece, MAX_PIECE],
    [FEATURE.punct, MAX_PUNCT_RUN],
  ] as const) {
    for (let n = 1; n < size; n++) result[start + n]! += result[start + n - 1]!;
  }
  return result;
}

const lambda = Number(process.argv[2] ?? '0.002');
const weights = fromIncrements(fit(samples));
console.log('export const TOKEN_WEIGHTS: readonly number[] = [');
console.log(`  ${[...weights].map((w) => Number(w.toFixed(4))).join(', ')},`);
console.log('];');
for (const [name, index] of Object.entries(FEATURE)) console.log(`// ${name.padEnd(14)} ${weights[index]!.toFixed(3)}`);

// Hold-out check: fit on every other file, report the per-class error on the files left out.
const names = files.map((file) => file.name);
const heldOut = new Set(names.filter((_, index) => index % 2 === 1));
const trained = fromIncrements(fit(samples.filter((sample) => !heldOut.has(sample.file))));
for (const corpusClass of CORPUS_CLASSES) {
  let real = 0;
  let estimated = 0;
  for (const sample of samples) {
    if (sample.corpusClass !== corpusClass || !heldOut.has(sample.file)) continue;
    real += sample.tokens;
    const histogram = fromIncrementCounts(sample.features);
    for (let i = 0; i < FEATURE_COUNT; i++) estimated += histogram[i]! * trained[i]!;
  }
  console.log(`// held-out ${corpusClass.padEnd(5)} error ${(((estimated - real) / real) * 100).toFixed(1)}%`);
}

function fromIncrementCounts(features: Float64Array): Float64Array {
  const result = Float64Array.from(features);
  for (const [start, size] of [
    [FEATURE.piece, MAX_PIECE],
    [FEATURE.punct, MAX_PUNCT_RUN],
  ] as const) {
    for (let n = 0; n < size - 1; n++) result[start + n]! -= features[start + n + 1]!;
  }
  return result;
}

function fit(data: Sample[]): Float64Array {
  // Equal weight per class: each sample weighs 1 / (its class's total tokens).
  const classTokens = new Map<string, number>();
  for (const sample of data)
    classTokens.set(sample.corpusClass, (classTokens.get(sample.corpusClass) ?? 0) + sample.tokens);
  for (const sample of data) sample.weight = 1 / classTokens.get(sample.corpusClass)!;
  const w0 = prior();
  const fixedZero = new Set<number>();
  let result = w0;
  for (let round = 0; round < 20; round++) {
    result = solve(data, w0, lambda, fixedZero);
    const negative = [...result.keys()].filter((i) => result[i]! < 0);
    if (negative.length === 0) break;
    for (const i of negative) fixedZero.add(i);
  }
  return result;
}

function solve(data: Sample[], priorWeights: Float64Array, ridge: number, zero: Set<number>): Float64Array {
  const n = FEATURE_COUNT;
  const a = Array.from({ length: n }, () => new Float64Array(n + 1));
  for (const { features, tokens, weight } of data) {
    for (let i = 0; i < n; i++) {
      const fi = features[i]!;
      if (fi === 0) continue;
      for (let j = 0; j < n; j++) a[i]![j]! += weight * fi * features[j]!;
      a[i]![n]! += weight * fi * tokens;
    }
  }
  for (let i = 0; i < n; i++) {
    a[i]![i]! += ridge;
    a[i]![n]! += ridge * priorWeights[i]!;
    if (zero.has(i)) {
      a[i]!.fill(0);
      a[i]![i] = 1;
    }
  }
  for (const i of zero) for (let r = 0; r < n; r++) if (r !== i) a[r]![i] = 0;
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = a[r]![col]! / p;
      if (factor === 0) continue;
      for (let c = col; c <= n; c++) a[r]![c]! -= factor * a[col]![c]!;
    }
  }
  return Float64Array.from({ length: n }, (_, i) => a[i]![n]! / a[i]![i]!);
}
