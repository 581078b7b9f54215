// Loads the calibration corpus: bench/corpus/<class>/<file>, one class per directory (en, zh, code, json).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CorpusFile {
  corpusClass: string;
  name: string;
  text: string;
}

export const CORPUS_CLASSES = ['en', 'zh', 'code', 'json'] as const;

export function loadCorpus(): CorpusFile[] {
  const root = join(import.meta.dirname, 'corpus');
  return CORPUS_CLASSES.flatMap((corpusClass) =>
    readdirSync(join(root, corpusClass))
      .sort()
      .map((name) => ({ corpusClass, name, text: readFileSync(join(root, corpusClass, name), 'utf8') })),
  );
}
