// The order `npm test` runs its files in: the longest first, so that with two workers the run does not end on one
// long file started late while the other worker idles. Vitest knows each file's duration only from the cache of an
// earlier run on the same machine (node_modules/.vite, absent on a clean clone, where it orders by file size), so the
// durations of a whole run are committed in scripts/test-durations.json; `node scripts/test-durations.mjs
// <vitest JSON report>` writes them again (docs/decisions/test-suite-time.md).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DURATIONS_FILE = join(import.meta.dirname, 'test-durations.json');

/** The committed durations, in ms by path from the repository root; empty when the file is missing or unreadable. */
export function committedDurations(file = DURATIONS_FILE) {
  if (!existsSync(file)) return new Map();
  try {
    const { files } = JSON.parse(readFileSync(file, 'utf8'));
    return new Map(Object.entries(files ?? {}).filter(([, ms]) => typeof ms === 'number' && ms >= 0));
  } catch {
    return new Map();
  }
}

/**
 * Sorts `files` longest first by `durationOf(file)` (ms, or undefined when unknown). Files of unknown duration come
 * before all others, larger first (`sizeOf`): they are new since the durations were written, and a new file may be a
 * long one; the known ones follow from the longest down, which leaves the shortest for the end of the run.
 */
export function longestFirst(files, durationOf, sizeOf) {
  const keyed = files.map((file, index) => ({ file, index, ms: durationOf(file), size: sizeOf(file) }));
  keyed.sort((a, b) => {
    const unknownA = a.ms === undefined;
    const unknownB = b.ms === undefined;
    if (unknownA !== unknownB) return unknownA ? -1 : 1;
    if (unknownA) return b.size - a.size || a.index - b.index;
    return b.ms - a.ms || a.index - b.index;
  });
  return keyed.map(({ file }) => file);
}
