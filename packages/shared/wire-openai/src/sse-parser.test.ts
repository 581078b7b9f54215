import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser.js';

function parseAll(pieces: string[], end = true) {
  const events: Array<{ data: string; event: string | undefined }> = [];
  const unknown: string[] = [];
  const parser = new SseParser({
    onData: (data, event) => events.push({ data, event }),
    onUnknownLine: (line) => unknown.push(line),
  });
  for (const piece of pieces) parser.push(piece);
  if (end) parser.end();
  return { events, unknown };
}

describe('SseParser', () => {
  it('dispatches each event at its blank line', () => {
    const { events } = parseAll(['data: {"a":1}\n\ndata: [DONE]\n\n'], false);
    expect(events.map((event) => event.data)).toEqual(['{"a":1}', '[DONE]']);
  });

  it('keeps an event whose lines arrive in several pieces', () => {
    const { events } = parseAll(['da', 'ta: hel', 'lo\n', '\n'], false);
    expect(events).toEqual([{ data: 'hello', event: undefined }]);
  });

  it('reads a long line that arrives in many pieces without a line end once its end comes, or at the end of the body', () => {
    const pieces = ['data: ', ...Array.from({ length: 1_000 }, (_, index) => `${index % 10}`.repeat(100))];
    const value = pieces.slice(1).join('');
    expect(parseAll([...pieces, '\n', '\n'], false).events).toEqual([{ data: value, event: undefined }]);
    expect(parseAll([...pieces, '\r', '\n', '\r\n']).events).toEqual([{ data: value, event: undefined }]);
    expect(parseAll(pieces).events).toEqual([{ data: value, event: undefined }]);
    expect(parseAll(['data: x\r', '\n']).events).toEqual([{ data: 'x', event: undefined }]);
  });

  it('joins multi-line data with LF and reads the event name', () => {
    const { events } = parseAll(['event: error\ndata: one\ndata: two\n\n']);
    expect(events).toEqual([{ data: 'one\ntwo', event: 'error' }]);
  });

  it('accepts CRLF and CR line ends, also when CR and LF arrive in different pieces', () => {
    const { events } = parseAll(['data: a\r', '\n\r', '\ndata: b\r\rdata:c\n\n']);
    expect(events.map((event) => event.data)).toEqual(['a', 'b', 'c']);
  });

  it('ignores comments and id/retry fields, and strips exactly one space after the colon', () => {
    const { events, unknown } = parseAll([': keep-alive\nid: 7\nretry: 10\ndata:  two spaces\n\n']);
    expect(events.map((event) => event.data)).toEqual([' two spaces']);
    expect(unknown).toEqual([]);
  });

  it('reports lines that are not SSE instead of swallowing them', () => {
    const { events, unknown } = parseAll(['garbage here\nfoo: bar\ndata: ok\n\n']);
    expect(unknown).toEqual(['garbage here', 'foo: bar']);
    expect(events.map((event) => event.data)).toEqual(['ok']);
  });

  it('flushes a last event without its blank line when the body ends', () => {
    expect(parseAll(['data: last']).events.map((event) => event.data)).toEqual(['last']);
    expect(parseAll(['data: last'], false).events).toEqual([]);
  });

  it('gives the same events however the text is split (property)', () => {
    const line = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'b', '{', '"', ' ', 'é', '你') }).map((text) => `data: ${text}`),
      fc.constant(': comment'),
      fc.constant('event: x'),
      fc.constant(''),
    );
    const eol = fc.constantFrom('\n', '\r\n', '\r');
    const document = fc.array(fc.tuple(line, eol), { maxLength: 30 }).map((lines) => lines.flat().join(''));
    fc.assert(
      fc.property(document, fc.array(fc.nat(), { maxLength: 10 }), (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const pieces: string[] = [];
        let start = 0;
        for (const point of points) {
          pieces.push(text.slice(start, point));
          start = point;
        }
        pieces.push(text.slice(start));
        expect(parseAll(pieces)).toEqual(parseAll([text]));
      }),
    );
  });

  it('reads each line in place exactly as a line-by-line reading of its field and value (property)', () => {
    // The straightforward reading (what the parser did before it read lines in place): each line as its own string, its
    // field name sliced off and compared.
    function reference(text: string) {
      const events: Array<{ data: string; event: string | undefined }> = [];
      const unknown: string[] = [];
      let data = '';
      let hasData = false;
      let event: string | undefined;
      const dispatch = () => {
        if (hasData) events.push({ data, event });
        data = '';
        hasData = false;
        event = undefined;
      };
      const lines = text.split(/\r\n|\r|\n/);
      const last = lines.pop()!;
      if (last !== '') lines.push(last);
      for (const line of lines) {
        if (line === '') {
          dispatch();
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = '';
        if (colon !== -1) value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
        if (field === 'data') {
          data = hasData ? `${data}\n${value}` : value;
          hasData = true;
        } else if (field === 'event') event = value;
        else if (field !== 'id' && field !== 'retry') unknown.push(line);
      }
      dispatch();
      return { events, unknown };
    }
    const name = fc.constantFrom('data', 'event', 'id', 'retry', 'dat', 'datas', 'Data', 'evt', 'i', '', 'x:y');
    const value = fc.string({ unit: fc.constantFrom('a', ':', ' ', '{', '你', '\u2028') });
    const line = fc.oneof(
      fc.tuple(name, fc.constantFrom(':', ': ', ':  ', ''), value).map(([field, colon, text]) => field + colon + text),
      fc.constant(''),
      value,
    );
    const eol = fc.constantFrom('\n', '\r\n', '\r');
    const document = fc.array(fc.tuple(line, eol), { maxLength: 20 }).map((lines) => lines.flat().join(''));
    fc.assert(
      fc.property(document, fc.option(line, { nil: undefined }), (text, tail) => {
        const whole = tail === undefined ? text : text + tail;
        expect(parseAll([whole])).toEqual(reference(whole));
      }),
      { numRuns: 500 },
    );
  });
});
