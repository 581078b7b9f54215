// What the composer does with the files it is given (picked, dropped or pasted), before anything is sent: each one
// within the server's limits (hello.limits) is kept — an image of a type model APIs take as an image, a recording as
// audio, anything else as a file for the file reader — and the reader is told what will happen to it: an image for
// a model that cannot see is described by a model that can (plugin-media), or not sent when there is none; a file is
// read by the file reader for the model. The server checks again; this only saves a round trip and a surprise.
import type { Limits, ModelView, OutgoingAttachment, ParamsOf } from '@aalis/session-client';

export const IMAGE_TYPES: readonly OutgoingAttachment['mimeType'][] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

export type AttachmentKind = 'image' | 'audio' | 'file';

/** One attachment of `send` (an image, a file or a recording). */
export type SendAttachment = NonNullable<ParamsOf<'send'>['attachments']>[number];
/** What the page shows of an attachment while it is sent. */
export interface SendPreview {
  url?: string;
  name: string;
  kind: AttachmentKind;
}

export type AttachmentProblem =
  | { kind: 'size'; name: string; size: number; limit: number }
  | { kind: 'count'; limit: number };

export interface CandidateFile {
  name: string;
  type: string;
  size: number;
}

/** How a file goes: an image the model APIs take, a voice recording, or a file the file reader sniffs. */
export function attachmentKind(file: Pick<CandidateFile, 'type'>): AttachmentKind {
  if ((IMAGE_TYPES as readonly string[]).includes(file.type)) return 'image';
  if (file.type.startsWith('audio/')) return 'audio';
  return 'file';
}

/** The files that may be added to `already` attached ones, and the problem of each one that may not. */
export function checkFiles<T extends CandidateFile>(
  files: readonly T[],
  already: number,
  limits: Pick<Limits, 'maxAttachments' | 'maxAttachmentBytes'> | undefined,
): { accepted: T[]; problems: AttachmentProblem[] } {
  const accepted: T[] = [];
  const problems: AttachmentProblem[] = [];
  for (const file of files) {
    if (limits && file.size > limits.maxAttachmentBytes)
      problems.push({ kind: 'size', name: file.name, size: file.size, limit: limits.maxAttachmentBytes });
    else if (limits && already + accepted.length >= limits.maxAttachments) {
      if (!problems.some((problem) => problem.kind === 'count'))
        problems.push({ kind: 'count', limit: limits.maxAttachments });
    } else accepted.push(file);
  }
  return { accepted, problems };
}

export type AttachmentNote =
  /** The model cannot see: a model that can describes the images in words for it. */
  | { kind: 'described'; model: string; describer: string; count: number }
  /** The model cannot see and none configured can: the images are not sent to it. */
  | { kind: 'notSent'; model: string; count: number }
  /** The file reader reads these files for the model. */
  | { kind: 'read'; names: string[] };

/**
 * What will happen to the attached files with the model that answers (`modelId`, `<provider>/<model>`): nothing
 * to say for images a seeing model gets as they are.
 */
export function attachmentNotes(
  files: readonly Pick<CandidateFile, 'name' | 'type'>[],
  models: readonly ModelView[],
  modelId: string | undefined,
): AttachmentNote[] {
  const notes: AttachmentNote[] = [];
  const images = files.filter((file) => attachmentKind(file) === 'image').length;
  const model = models.find((candidate) => candidate.id === modelId);
  if (images > 0 && model && !model.vision) {
    // plugin-media's describer: plugins.media.describeModel, else the first model that can see.
    const describer = models.find((candidate) => candidate.vision);
    notes.push(
      describer
        ? { kind: 'described', model: model.name, describer: describer.name, count: images }
        : { kind: 'notSent', model: model.name, count: images },
    );
  }
  const read = files.filter((file) => attachmentKind(file) === 'file').map((file) => file.name);
  if (read.length > 0) notes.push({ kind: 'read', names: read });
  return notes;
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
