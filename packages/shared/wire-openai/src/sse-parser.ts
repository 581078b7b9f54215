// An incremental Server-Sent Events parser: feed text in pieces of any size, get each event's data once its
// blank line arrives. Handles LF, CRLF and CR line ends (also split across pieces) and multi-line data.

export interface SseParserOptions {
  /** Called with each complete event's data (lines joined by '\n') and its `event:` name, if any. */
  onData: (data: string, event: string | undefined) => void;
  /** Called with lines that are neither a comment nor a known field (data, event, id, retry). */
  onUnknownLine?: (line: string) => void;
}

const LF = 10;
const SPACE = 32;
const COLON = 58;

export class SseParser {
  /**
   * The pieces of a line whose end has not arrived (none holds a CR or LF). Kept as pieces and joined once its end
   * comes: one long line fed in many pieces would otherwise be copied and scanned again with every piece.
   */
  private rest: string[] = [];
  private data = '';
  private hasData = false;
  private event: string | undefined;
  /** The previous piece ended in CR: a LF starting the next piece belongs to the same line end. */
  private skipLeadingLf = false;
  private readonly onData: SseParserOptions['onData'];
  private readonly onUnknownLine: SseParserOptions['onUnknownLine'];

  constructor({ onData, onUnknownLine }: SseParserOptions) {
    this.onData = onData;
    this.onUnknownLine = onUnknownLine;
  }

  push(text: string): void {
    if (text.length === 0) return;
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false;
      if (text.charCodeAt(0) === LF) text = text.slice(1);
      if (text.length === 0) return;
    }
    if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) {
      this.rest.push(text);
      return;
    }
    const buffer = this.rest.length > 0 ? this.rest.join('') + text : text;
    let start = 0;
    let nextCr = buffer.indexOf('\r');
    if (nextCr === -1) {
      // The common case: LF line ends only.
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
        this.line(buffer, start, end);
        start = end + 1;
      }
    } else {
      for (;;) {
        if (nextCr !== -1 && nextCr < start) nextCr = buffer.indexOf('\r', start);
        const nextLf = buffer.indexOf('\n', start);
        if (nextCr === -1 && nextLf === -1) break;
        if (nextCr === -1 || (nextLf !== -1 && nextLf < nextCr)) {
          this.line(buffer, start, nextLf);
          start = nextLf + 1;
          continue;
        }
        this.line(buffer, start, nextCr);
        if (nextCr + 1 === buffer.length) {
          this.skipLeadingLf = true;
          start = nextCr + 1;
        } else {
          start = buffer.charCodeAt(nextCr + 1) === LF ? nextCr + 2 : nextCr + 1;
        }
      }
    }
    this.rest = start === buffer.length ? [] : [start === 0 ? buffer : buffer.slice(start)];
  }

  /** The body ended: a last line without its line end, and an event without its blank line, still count. */
  end(): void {
    if (this.rest.length > 0) {
      const last = this.rest.join('');
      this.rest = [];
      this.line(last, 0, last.length);
    }
    this.dispatch();
  }

  /**
   * The line `text[start, end)`, read where it lies: no string is made for the line or its field name, only for a value
   * that is kept (two strings less per event).
   */
  private line(text: string, start: number, end: number): void {
    if (start === end) {
      this.dispatch();
      return;
    }
    if (text.charCodeAt(start) === COLON) return; // a comment (keep-alive)
    let colon = text.indexOf(':', start);
    if (colon >= end) colon = -1;
    const fieldEnd = colon === -1 ? end : colon;
    let valueStart = end;
    if (colon !== -1) valueStart = text.charCodeAt(colon + 1) === SPACE && colon + 1 < end ? colon + 2 : colon + 1;
    switch (fieldOf(text, start, fieldEnd)) {
      case 'data': {
        const value = text.slice(valueStart, end);
        this.data = this.hasData ? `${this.data}\n${value}` : value;
        this.hasData = true;
        return;
      }
      case 'event':
        this.event = text.slice(valueStart, end);
        return;
      case 'id':
      case 'retry':
        return;
      default:
        this.onUnknownLine?.(text.slice(start, end));
    }
  }

  private dispatch(): void {
    if (this.hasData) {
      const data = this.data;
      const event = this.event;
      this.data = '';
      this.hasData = false;
      this.event = undefined;
      this.onData(data, event);
      return;
    }
    this.event = undefined;
  }
}

/** The known field a line's name is, or undefined, compared in place. */
function fieldOf(text: string, start: number, end: number): 'data' | 'event' | 'id' | 'retry' | undefined {
  switch (end - start) {
    case 4:
      return text.startsWith('data', start) ? 'data' : undefined;
    case 5:
      return text.startsWith('event', start) ? 'event' : text.startsWith('retry', start) ? 'retry' : undefined;
    case 2:
      return text.startsWith('id', start) ? 'id' : undefined;
    default:
      return undefined;
  }
}
