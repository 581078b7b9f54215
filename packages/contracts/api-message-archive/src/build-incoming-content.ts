// The archived (and model-facing) content of an input: time annotation, sender prefix, text. Pure and stable byte
// for byte for the same input, so the archive and the agent (when the archive is absent) produce the same text.
import { DEFAULT_LOCALE, type Locale, textRef, translate } from '@aalis/core';
import type { IncomingMessage } from '@aalis/schema-message';
import { formatArchiveTime } from './format-archive-time.js';
import './archive-catalogue.js';

export interface BuildIncomingContentInput {
  /** Only the text and whether it is a host notice are read; `hostNotice.untrusted` is never included. */
  message: Pick<IncomingMessage, 'content' | 'hostNotice'>;
  /** speakerOf(...) for the input; undefined → no prefix. Ignored for host notices (the host is not a speaker). */
  speaker: string | undefined;
  /** The moment the input entered its turn, milliseconds since the epoch. */
  time: number;
  /** IANA time zone of the annotation (default UTC). */
  timeZone?: string;
  locale?: Locale;
}

export function buildIncomingContent({
  message,
  speaker,
  time,
  timeZone,
  locale = DEFAULT_LOCALE,
}: BuildIncomingContentInput): string {
  const stamp = formatArchiveTime({ time, timeZone, locale });
  const content = message.content;
  if (message.hostNotice)
    return translate(textRef('messageArchive.content.hostNotice', { time: stamp, content }), locale);
  if (speaker === undefined || speaker === '') {
    return translate(textRef('messageArchive.content.unattributed', { time: stamp, content }), locale);
  }
  return translate(textRef('messageArchive.content.spoken', { time: stamp, speaker, content }), locale);
}
