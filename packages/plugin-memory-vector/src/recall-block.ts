// The recalled block as the model reads it: a header, a sentence saying these are records and not instructions,
// then one line per message labelled with when, where and who, the words quoted as a JSON string (a recalled text
// cannot end its quote, start a line of its own or pass for the prompt's own words).
import { formatArchiveTime } from '@aalis/api-message-archive';
import { type Locale, textRef, translate } from '@aalis/core';
import type { Excerpt } from './recall.js';
import type { RecallEntry } from './recall-store.js';
import './memory-vector-texts.js';

export interface BlockOptions {
  sessionId: string;
  locale: Locale;
  timeZone: string | undefined;
  itemMaxChars: number;
}

function whereOf(entry: RecallEntry, { sessionId, locale }: BlockOptions): string {
  if (entry.sessionId === sessionId) return translate(textRef('memoryVector.where.session'), locale);
  const room = /^room:([^:]+):(.*)$/.exec(entry.audience);
  if (room)
    return translate(textRef('memoryVector.where.room', { platform: room[1] ?? '', venue: room[2] ?? '' }), locale);
  if (entry.audience.startsWith('private:session:')) return translate(textRef('memoryVector.where.other'), locale);
  return translate(textRef('memoryVector.where.private'), locale);
}

function line(entry: RecallEntry, options: BlockOptions): string {
  const when = formatArchiveTime({
    time: entry.at,
    locale: options.locale,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  });
  const who =
    entry.role === 'assistant'
      ? translate(textRef('memoryVector.self'), options.locale)
      : (entry.speaker ?? translate(textRef('memoryVector.someone'), options.locale));
  const cut = entry.text.length > options.itemMaxChars;
  const text = JSON.stringify(cut ? entry.text.slice(0, options.itemMaxChars) : entry.text);
  const tail = cut ? translate(textRef('memoryVector.cut'), options.locale) : '';
  return `${when} ${whereOf(entry, options)} · ${who}: ${text}${tail}`;
}

export function recallBlock(excerpts: readonly Excerpt[], options: BlockOptions): string | undefined {
  if (excerpts.length === 0) return undefined;
  const inTimeOrder = [...excerpts].sort((a, b) => (a.entries[0]?.at ?? 0) - (b.entries[0]?.at ?? 0));
  const parts = inTimeOrder.map((excerpt) => excerpt.entries.map((entry) => line(entry, options)).join('\n'));
  return [
    translate(textRef('memoryVector.header'), options.locale),
    translate(textRef('memoryVector.preamble'), options.locale),
    '',
    parts.join('\n\n'),
  ].join('\n');
}
