// A deterministic stand-in for an embedding model, for tests and benchmarks only: a hashed bag of words. Each word
// (lower-cased, cut to its first five letters so that "paint", "painted" and "painting" meet; each Han character on
// its own) adds ±1 at a position chosen by its hash, and the vector is scaled to unit length. Texts sharing words
// point the same way, which is all a test of the dense path needs; it knows no synonyms.

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

export function hashedEmbeddingWords(text: string): string[] {
  const words = text.toLowerCase().match(/\p{Script=Han}|[\p{L}\p{N}]+/gu) ?? [];
  return words.map((word) => word.slice(0, 5));
}

export function hashedEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of hashedEmbeddingWords(text)) {
    const value = hash(word);
    vector[value % dimensions]! += value & 0x80000000 ? -1 : 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm === 0 ? vector : vector.map((value) => value / norm);
}
