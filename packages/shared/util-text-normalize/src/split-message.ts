// Splits a reply that is longer than a platform's message limit into pieces a chat shows as one text: cuts fall
// on paragraph breaks, then line breaks, then spaces, and a word is cut only when it alone exceeds the limit. A
// fenced code block that must be cut is closed at the end of one piece and reopened (same fence and language) at
// the start of the next, so every piece renders as valid Markdown.

/** A fence line opens or closes a code block: three or more backticks or tildes, optionally an info string. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

interface OpenFence {
  /** The opening line as written (reopened verbatim in the next piece). */
  line: string;
  /** The closing marker (the fence characters alone). */
  marker: string;
}

/**
 * Splits `text` into pieces of at most `limit` UTF-16 code units. Text that fits is returned as one piece;
 * pieces are trimmed of the line breaks at a cut and never empty.
 */
export function splitMessage(text: string, limit: number): string[] {
  if (!Number.isInteger(limit) || limit < 16) throw new RangeError(`splitMessage: limit must be an integer ≥ 16`);
  if (text.length <= limit) return text === '' ? [] : [text];
  const pieces: string[] = [];
  let current = '';
  let fence: OpenFence | undefined;
  /** Room the closing fence needs in the current piece. */
  const reserve = () => (fence ? fence.marker.length + 1 : 0);
  const flush = () => {
    let piece = current.replace(/\n+$/, '');
    if (fence) piece += `\n${fence.marker}`;
    if (piece.trim() !== '' && piece.trim() !== fence?.line.trim()) pieces.push(piece);
    current = fence ? `${fence.line}\n` : '';
  };
  for (const line of text.split(/(?<=\n)/)) {
    const match = FENCE.exec(line.replace(/\n$/, ''));
    const nextFence = match ? toggle(fence, match) : fence;
    if (current.length + line.length + reserveAfter(nextFence) <= limit) {
      current += line;
      fence = nextFence;
      continue;
    }
    // The line does not fit: end this piece at a paragraph break in its second half when there is one.
    if (current.length > (fence ? fence.line.length + 1 : 0)) {
      const paragraph = fence ? -1 : current.lastIndexOf('\n\n');
      if (paragraph > limit / 2) {
        const carried = current.slice(paragraph + 2);
        current = current.slice(0, paragraph);
        flush();
        current += carried;
      } else {
        flush();
      }
    }
    if (current.length + line.length + reserveAfter(nextFence) <= limit) {
      current += line;
      fence = nextFence;
      continue;
    }
    // A single line longer than a piece: cut it at spaces (or, for one overlong word, anywhere but a surrogate).
    let rest = line;
    while (current.length + rest.length + reserve() > limit) {
      const room = limit - current.length - reserve();
      const cut = cutPoint(rest, room);
      current += rest.slice(0, cut).replace(/[ \t]+$/, '');
      rest = rest.slice(cut).replace(/^[ \t]+/, '');
      flush();
    }
    current += rest;
    fence = nextFence;
  }
  fence = undefined;
  flush();
  return pieces;

  function reserveAfter(next: OpenFence | undefined): number {
    return next ? next.marker.length + 1 : 0;
  }
}

function toggle(fence: OpenFence | undefined, match: RegExpExecArray): OpenFence | undefined {
  const marker = match[1] ?? '```';
  if (!fence) return { line: match[0].trimStart(), marker };
  // A closing fence uses the same character, at least as long, with no info string.
  const closes = marker[0] === fence.marker[0] && marker.length >= fence.marker.length && match[2]?.trim() === '';
  return closes ? undefined : fence;
}

/** Where to cut `line` to keep at most `room` units: the last space within room, else room (not inside a pair). */
function cutPoint(line: string, room: number): number {
  const space = line.lastIndexOf(' ', room);
  if (space > room / 3) return space + 1;
  let cut = Math.max(1, room);
  const code = line.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return Math.max(1, cut);
}
