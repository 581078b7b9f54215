// Repairs the GFM tables a model writes almost right, before the text is parsed: the stored text keeps table
// separator rows exactly as the model sent them (plugin-agent: 「表格分隔行照原样（WebUI 渲染时修）」), and the
// renderer mends them. A separator row with the wrong column count, missing pipes, unicode dashes (— –) or `=`
// is rewritten to the header's column count with its alignments kept; a pipe table with no separator row gets one;
// a header narrower than its body rows is widened, so no cell is dropped. Fenced code is never touched.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** Only separator characters, with at least one dash-like run. */
const SEPARATOR = /^[\s|:+\-–—=]*[-–—=][\s|:+\-–—=]*$/;

/** The cells of a table row (`| a | b |`, `a | b`), split on unescaped pipes, trimmed. */
export function tableCells(line: string): string[] {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1);
  return body.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

const isPipeRow = (line: string) => /(?<!\\)\|/.test(line) && !SEPARATOR.test(line);
const isFramedRow = (line: string) => {
  const trimmed = line.trim();
  return trimmed.length > 1 && trimmed.startsWith('|') && trimmed.endsWith('|') && !SEPARATOR.test(trimmed);
};
/** A separator after `header`: with a pipe, or a bare dash run under a framed header (else it is a setext rule). */
const isSeparatorFor = (line: string, header: string) =>
  SEPARATOR.test(line) && /[-–—=]/.test(line) && (line.includes('|') || isFramedRow(header));

function separatorRow(alignments: readonly string[]): string {
  return `| ${alignments.join(' | ')} |`;
}

function alignmentOf(cell: string): string {
  const trimmed = cell.replace(/[\s+]/g, '');
  const left = trimmed.startsWith(':');
  const right = trimmed.endsWith(':') && trimmed.length > 1;
  if (left && right) return ':---:';
  if (left) return ':---';
  if (right) return '---:';
  return '---';
}

function widenRow(line: string, columns: number): string {
  const cells = tableCells(line);
  if (cells.length >= columns) return line;
  return `| ${[...cells, ...Array.from({ length: columns - cells.length }, () => ' ')].join(' | ')} |`;
}

/** The text with every table's separator row mended (see the module comment); other lines are kept byte for byte. */
export function mendTableSeparators(text: string): string {
  if (!text.includes('|')) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    const opened = FENCE.exec(line);
    if (fence !== undefined) {
      if (opened && opened[1]![0] === fence[0] && opened[1]!.length >= fence.length) fence = undefined;
      out.push(line);
      index++;
      continue;
    }
    if (opened) {
      fence = opened[1]!;
      out.push(line);
      index++;
      continue;
    }
    const previous = out.at(-1);
    const startsBlock = previous === undefined || previous.trim() === '' || !isPipeRow(previous);
    const next = lines[index + 1];
    const hasSeparator = next !== undefined && isPipeRow(line) && isSeparatorFor(next, line);
    const missingSeparator =
      !hasSeparator && startsBlock && next !== undefined && isFramedRow(line) && isFramedRow(next);
    if (!startsBlock || (!hasSeparator && !missingSeparator) || tableCells(line).length < 2) {
      out.push(line);
      index++;
      continue;
    }
    // The table's body: the rows after the separator (or after the header, when there is none).
    let end = index + (hasSeparator ? 2 : 1);
    while (end < lines.length && isPipeRow(lines[end]!)) end++;
    const body = lines.slice(index + (hasSeparator ? 2 : 1), end);
    const columns = Math.max(tableCells(line).length, ...body.map((row) => tableCells(row).length));
    const given = hasSeparator ? tableCells(next!) : [];
    const alignments = Array.from({ length: columns }, (_, column) => alignmentOf(given[column] ?? ''));
    out.push(widenRow(line, columns), separatorRow(alignments), ...body);
    index = end;
  }
  return out.join('\n');
}
