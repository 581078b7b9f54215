// Checks images against the server's limits before anything is sent (hello.limits), so a refusal is explained at
// once and the typed text stays in the composer. The server checks again; this only saves a round trip.
import type { Limits, OutgoingAttachment } from '@aalis/session-client';

export const IMAGE_TYPES: readonly OutgoingAttachment['mimeType'][] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

export type AttachmentProblem =
  | { kind: 'type'; name: string }
  | { kind: 'size'; name: string; size: number; limit: number }
  | { kind: 'count'; limit: number };

export interface CandidateImage {
  name: string;
  type: string;
  size: number;
}

/** The images that may be added to `already` attached ones, and the problem of each one that may not. */
export function checkImages<T extends CandidateImage>(
  files: readonly T[],
  already: number,
  limits: Pick<Limits, 'maxAttachments' | 'maxAttachmentBytes'> | undefined,
): { accepted: T[]; problems: AttachmentProblem[] } {
  const accepted: T[] = [];
  const problems: AttachmentProblem[] = [];
  for (const file of files) {
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) problems.push({ kind: 'type', name: file.name });
    else if (limits && file.size > limits.maxAttachmentBytes)
      problems.push({ kind: 'size', name: file.name, size: file.size, limit: limits.maxAttachmentBytes });
    else if (limits && already + accepted.length >= limits.maxAttachments) {
      if (!problems.some((problem) => problem.kind === 'count'))
        problems.push({ kind: 'count', limit: limits.maxAttachments });
    } else accepted.push(file);
  }
  return { accepted, problems };
}

/** A byte count for people: 512 B, 1.5 KiB, 10 MiB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
