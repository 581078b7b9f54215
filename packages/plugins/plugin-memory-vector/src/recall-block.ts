// The recalled block as the model reads it: a header, a sentence saying these are records and not instructions,
// then excerpts (consecutive messages of one conversation), each labelled with when and where it was said, one line
// per message naming who, the words quoted as a JSON string (a recalled text cannot end its quote, start a line of
// its own or pass for the prompt's own words).
import { formatArchiveTime } from '@aalis/api-message-archive';
import { estimateTextTokens } from '@aalis/context-budget';
import { type Locale, textRef, translate } from '@aalis/core';
import type { Excerpt } from './recall.js';
import type { RecallEntry } from './recall-store.js';
import './memory-vector-texts.js';

export interface BlockOptions {
  sessionId: string;
  locale: Locale;
  timeZone: string | undefined;
  /** Longest text of a message that matched. */
  itemMaxChars: number;
  /** Longest text of a neighbour (context around a match: its gist is enough, and the budget goes further). */
  neighbourMaxChars: number;
}

function whereOf(entry: RecallEntry, { sessionId, locale }: BlockOptions): string {
  if (entry.sessionId === sessionId) return translate(textRef('memoryVector.where.session'), locale);
  const room = /^room:([^:]+):(.*)$/.exec(entry.audience);
  if (room)
    return translate(textRef('memoryVector.where.room', { platform: room[1] ?? '', venue: room[2] ?? '' }), locale);
  if (entry.audience.startsWith('private:session:')) return translate(textRef('memoryVector.where.other'), locale);
  return translate(textRef('memoryVector.where.private'), locale);
}

function whoOf(entry: RecallEntry, locale: Locale): string {
  return entry.role === 'assistant'
    ? translate(textRef('memoryVector.self'), locale)
    : (entry.speaker ?? translate(textRef('memoryVector.someone'), locale));
}

/** One message: who, then the words as a JSON string (cut at maxChars). */
export function entryLine(entry: RecallEntry, options: { locale: Locale; maxChars: number }): string {
  const cut = entry.text.length > options.maxChars;
  const text = JSON.stringify(cut ? entry.text.slice(0, options.maxChars) : entry.text);
  const tail = cut ? translate(textRef('memoryVector.cut'), options.locale) : '';
  return `${whoOf(entry, options.locale)}: ${text}${tail}`;
}

/** Formatted minutes: a turn prices each excerpt's label, then renders it, and old messages come back turn after turn. */
const formattedMinutes = new Map<string, string>();
const FORMATTED_MINUTES = 4_096;

function whenOf(at: number, { locale, timeZone }: Pick<BlockOptions, 'locale' | 'timeZone'>): string {
  const key = `${locale}\u0000${timeZone ?? ''}\u0000${Math.floor(at / 60_000)}`;
  let when = formattedMinutes.get(key);
  if (when === undefined) {
    when = formatArchiveTime({ time: at, locale, ...(timeZone ? { timeZone } : {}) });
    if (formattedMinutes.size >= FORMATTED_MINUTES) formattedMinutes.clear();
    formattedMinutes.set(key, when);
  }
  return when;
}

/** An excerpt's label: when its first message was said and where. */
export function excerptLabel(first: RecallEntry, options: BlockOptions): string {
  return `${whenOf(first.at, options)} ${whereOf(first, options)}:`;
}

const maxCharsOf = (matched: boolean, options: Pick<BlockOptions, 'itemMaxChars' | 'neighbourMaxChars'>) =>
  matched ? options.itemMaxChars : Math.min(options.neighbourMaxChars, options.itemMaxChars);

/**
 * Lines' estimated costs by locale, length and message, kept across turns by the plugin (a message's line never
 * changes; the same past messages are priced turn after turn). Bounded; the plugin empties it when it forgets.
 */
export class LineCosts {
  private readonly kept = new Map<string, number>();

  constructor(private readonly capacity = 20_000) {}

  of(key: string, estimate: () => number): number {
    let cost = this.kept.get(key);
    if (cost === undefined) {
      cost = estimate();
      if (this.kept.size >= this.capacity) this.kept.clear();
      this.kept.set(key, cost);
    }
    return cost;
  }

  clear(): void {
    this.kept.clear();
  }
}

/** What one message's line costs (estimated), as a match or as a neighbour, and an excerpt's label. */
export function blockCosts(options: BlockOptions, lineCosts?: LineCosts) {
  const estimate = (entry: RecallEntry, maxChars: number) =>
    estimateTextTokens(entryLine(entry, { locale: options.locale, maxChars })) + 1;
  return {
    line: (entry: RecallEntry, matched: boolean) => {
      const maxChars = maxCharsOf(matched, options);
      return lineCosts
        ? lineCosts.of(`${options.locale}\u0000${maxChars}\u0000${entry.messageId}`, () => estimate(entry, maxChars))
        : estimate(entry, maxChars);
    },
    excerpt: (first: RecallEntry) => estimateTextTokens(excerptLabel(first, options)) + 2,
  };
}

/** Per locale: the header's cost never changes, and every turn's recall pays it first. */
const headerCosts = new Map<Locale, number>();

/** What the block's header and preamble cost (estimated), before any recalled message. */
export function headerTokens(locale: Locale): number {
  let tokens = headerCosts.get(locale);
  if (tokens === undefined) {
    tokens =
      estimateTextTokens(translate(textRef('memoryVector.header'), locale)) +
      estimateTextTokens(translate(textRef('memoryVector.preamble'), locale)) +
      4;
    headerCosts.set(locale, tokens);
  }
  return tokens;
}

export function recallBlock(excerpts: readonly Excerpt[], options: BlockOptions): string | undefined {
  if (excerpts.length === 0) return undefined;
  const inTimeOrder = [...excerpts].sort((a, b) => (a.entries[0]?.at ?? 0) - (b.entries[0]?.at ?? 0));
  const parts = inTimeOrder.map((excerpt) => {
    const first = excerpt.entries[0];
    const lines = excerpt.entries.map((entry) =>
      entryLine(entry, { locale: options.locale, maxChars: maxCharsOf(excerpt.matched.has(entry.messageId), options) }),
    );
    return [first ? excerptLabel(first, options) : '', ...lines].join('\n');
  });
  return [
    translate(textRef('memoryVector.header'), options.locale),
    translate(textRef('memoryVector.preamble'), options.locale),
    '',
    parts.join('\n\n'),
  ].join('\n');
}
