import { describe, expect, it } from 'vitest';
import { SEGMENTER_NOT_NEEDED, searchTerms, segmentedTerms, splitTerms } from './search-terms.js';

// A seeded generator: a failure names the text it failed on, and every run tries the same texts.
let seed = 7;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

/** Characters of the range read without the segmenter, weighted towards what breaks words oddly. */
const TRICKY = Array.from(
  "'.,:;-_ \t\n\u00ad\u00b7\u2019\u2018\u201c\u2026\u200b\u200c\u200d\u2060\u2024\u2027@#%&/ 0123456789",
);
function randomText(): string {
  const length = 1 + Math.floor(random() * 40);
  let text = '';
  for (let i = 0; i < length; i += 1) {
    const roll = random();
    if (roll < 0.45) text += String.fromCharCode(0x61 + Math.floor(random() * 26));
    else if (roll < 0.7) text += TRICKY[Math.floor(random() * TRICKY.length)];
    else if (roll < 0.9) text += String.fromCharCode(Math.floor(random() * 0x250));
    else text += String.fromCharCode(0x2000 + Math.floor(random() * 0x70));
  }
  return text;
}

describe('terms without the segmenter', () => {
  it('are the segmenter’s terms for every text of Latin letters, digits and punctuation', () => {
    let compared = 0;
    for (let i = 0; i < 20_000; i += 1) {
      const normalised = randomText().normalize('NFKC').toLowerCase();
      if (!SEGMENTER_NOT_NEEDED.test(normalised)) continue;
      expect(splitTerms(normalised), JSON.stringify(normalised)).toEqual(segmentedTerms(normalised));
      compared += 1;
    }
    // NFKC takes some generated characters out of the range: most texts must still be compared.
    expect(compared).toBeGreaterThan(5_000);
  });

  it('leave text with other scripts to the segmenter', () => {
    expect(searchTerms('we went to 杭州西湖 today')).toEqual(['we', 'went', 'to', '杭州', '西湖', 'todai']);
    expect(searchTerms('naïve café déjà-vu')).toEqual(segmentedTerms('naïve café déjà-vu'));
  });
});
