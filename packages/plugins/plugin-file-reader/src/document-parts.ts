// A document's text cut into parts of at most `partChars` characters, on unit boundaries (pages, slides, sheets,
// lines) where a unit fits, so that read_uploaded_file pages through it and the outline can say where each part
// starts.
export interface DocumentPart {
  /** 1-based units this part covers (a unit split over parts appears in each). */
  fromUnit: number;
  toUnit: number;
  text: string;
}

export function cutIntoParts(units: readonly string[], unitSeparator: string, partChars: number): DocumentPart[] {
  const parts: DocumentPart[] = [];
  let text = '';
  let fromUnit = 1;
  let toUnit = 0;
  const flush = () => {
    if (text.trim() !== '') parts.push({ fromUnit, toUnit, text });
    text = '';
  };
  units.forEach((unit, index) => {
    const number = index + 1;
    const piece = text === '' ? unit : unitSeparator + unit;
    if (text !== '' && text.length + piece.length > partChars) {
      flush();
      fromUnit = number;
    }
    if (text === '') fromUnit = number;
    let rest = text === '' ? unit : piece;
    // A unit longer than a part is split at the last line break (or space) before the limit.
    while (text.length + rest.length > partChars) {
      const room = partChars - text.length;
      let cut = rest.lastIndexOf('\n', room);
      if (cut < room / 2) cut = rest.lastIndexOf(' ', room);
      if (cut < room / 2) cut = room;
      text += rest.slice(0, cut);
      toUnit = number;
      flush();
      fromUnit = number;
      rest = rest.slice(cut).replace(/^\n/, '');
    }
    text += rest;
    toUnit = number;
  });
  flush();
  return parts;
}

/** The start of a part for the outline: its first non-empty line, at most `max` characters. */
export function partStart(text: string, max = 80): string {
  const line =
    text
      .split('\n')
      .find((candidate) => candidate.trim() !== '')
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
