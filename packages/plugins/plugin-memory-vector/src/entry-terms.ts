// The full-text terms of entries and of the words said before them, each text tokenised once: an entry's context is
// the start of the entry before it in its session (contextText), whose terms were just computed with that entry, so
// they are kept per session and used again; a speaker's name is tokenised once while it keeps speaking. Tokenising
// was most of the cost of indexing (docs/decisions/long-term-memory.md, "Indexing speed").
import { MAX_INDEXED_CHARS, searchTerms } from '@aalis/util-text-search';
import { contextCut, contextText, type RecallEntry } from './recall-store.js';

/** Sessions whose last entry's context terms are kept (the same bound as the indexer's last words). */
const REMEMBERED_SESSIONS = 10_000;
/** Speakers whose name terms are kept. */
const REMEMBERED_SPEAKERS = 10_000;

export interface TermsOfEntry {
  /** searchTerms(searchedText(entry)): its speaker's name and words. */
  terms: string[];
  /** searchTerms(contextText(entry.context)); empty without a context. */
  context: string[];
}

export class EntryTerms {
  /** Per session: the context text the next entry will carry (the start of the last one) and its terms. */
  private readonly heads = new Map<string, { head: string; terms: string[] }>();
  private readonly speakers = new Map<string, string[]>();

  of(entry: Pick<RecallEntry, 'sessionId' | 'speaker' | 'text' | 'context'>): TermsOfEntry {
    const context = this.contextTerms(entry.sessionId, entry.context);
    const cut = contextCut(entry.text);
    const head = entry.text.slice(0, cut);
    const headTerms = searchTerms(head);
    // Cut after a space or punctuation (contextCut), where ICU breaks words anyway, the head's terms and the rest's
    // are the whole text's; a text with no such place near the limit is read again whole.
    let textTerms = headTerms;
    if (cut < entry.text.length) {
      textTerms = BREAK.test(head)
        ? headTerms.concat(searchTerms(entry.text.slice(cut, MAX_INDEXED_CHARS)))
        : searchTerms(entry.text);
    }
    this.remember(entry.sessionId, head, headTerms);
    const speaker = entry.speaker === undefined ? [] : this.speakerTerms(entry.speaker);
    return { terms: speaker.length === 0 ? textTerms : speaker.concat(textTerms), context };
  }

  private contextTerms(sessionId: string, context: string | undefined): string[] {
    if (context === undefined) return [];
    const known = this.heads.get(sessionId);
    return known !== undefined && known.head === context ? known.terms : searchTerms(contextText(context));
  }

  private remember(sessionId: string, head: string, terms: string[]): void {
    this.heads.delete(sessionId);
    this.heads.set(sessionId, { head, terms });
    if (this.heads.size > REMEMBERED_SESSIONS) this.heads.delete(this.heads.keys().next().value as string);
  }

  private speakerTerms(speaker: string): string[] {
    let terms = this.speakers.get(speaker);
    if (terms === undefined) {
      terms = searchTerms(speaker);
      if (this.speakers.size >= REMEMBERED_SPEAKERS) this.speakers.clear();
      this.speakers.set(speaker, terms);
    }
    return terms;
  }
}

const BREAK = /[\s\p{P}]$/u;
