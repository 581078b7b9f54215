// Bytes of a text file → a string, whatever encoding our users' files come in: a byte-order mark decides first,
// then valid UTF-8, then the detector (chardet) with Chinese encodings favoured where it hesitates, decoded by
// iconv-lite. Undefined for bytes that are no text (binary).
import chardet from 'chardet';
import iconv from 'iconv-lite';

export interface DecodedText {
  text: string;
  encoding: string;
}

/** How much of a file the detector looks at (it is linear in the sample, and the start says enough). */
const SAMPLE_BYTES = 64 * 1024;

export function decodeText(bytes: Uint8Array): DecodedText | undefined {
  const bom = byteOrderMark(bytes);
  if (bom) return { text: iconv.decode(Buffer.from(bytes.subarray(bom.length)), bom.encoding), encoding: bom.encoding };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return looksLikeText(text) ? { text, encoding: 'UTF-8' } : undefined;
  } catch {
    // Not UTF-8: ask the detector.
  }
  const sample = Buffer.from(bytes.subarray(0, SAMPLE_BYTES));
  const candidates = chardet.analyse(sample);
  const encoding = chooseEncoding(candidates);
  if (!encoding || !iconv.encodingExists(encoding)) return undefined;
  const text = iconv.decode(Buffer.from(bytes), encoding);
  return looksLikeText(text) ? { text, encoding } : undefined;
}

function byteOrderMark(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'UTF-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'UTF-16LE', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'UTF-16BE', length: 2 };
  return undefined;
}

/**
 * The detector's first guess, except that a Chinese encoding among its strong guesses wins over Japanese and Korean
 * ones: short GBK texts score close to EUC-JP/EUC-KR, and our users' legacy files are overwhelmingly GBK/GB18030.
 * GBK is read as GB18030 (its superset), Big5 stays Big5.
 */
function chooseEncoding(candidates: { name: string; confidence: number }[]): string | undefined {
  const first = candidates[0];
  if (!first) return undefined;
  const top = first.confidence;
  const strong = candidates.filter((candidate) => candidate.confidence >= top * 0.5);
  // Among the Chinese guesses, GB18030 before Big5: on short texts they tie, and mainland files are the common case.
  const chinese =
    strong.find((candidate) => /^(GB18030|GBK|GB2312)$/i.test(candidate.name)) ??
    strong.find((candidate) => /^Big5$/i.test(candidate.name));
  const name = (chinese ?? first).name;
  return /^(GBK|GB2312)$/i.test(name) ? 'GB18030' : name;
}

/** Text has few control characters besides tab, line breaks and form feed (binary has many, NUL above all). */
function looksLikeText(text: string): boolean {
  const sample = text.slice(0, SAMPLE_BYTES);
  let control = 0;
  for (let index = 0; index < sample.length; index++) {
    const code = sample.charCodeAt(index);
    if (code === 0) return false;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) control++;
    if (code === 0xfffd) control++;
  }
  return control <= sample.length * 0.02;
}
