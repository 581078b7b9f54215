// Test-only: a multipart/form-data body read part by part as bytes. Servers use it where a FormData reader would take
// a file part sent without a filename (the Lark SDK's, a plain form-data upload) for text and so lose its bytes.

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  bytes: Buffer;
}

/** The parts of a multipart/form-data body, their content as bytes. */
export function multipartParts(raw: Buffer, bodyType: string): MultipartPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(bodyType);
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let at = raw.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (raw.subarray(start, start + 2).toString() === '--') break;
    const next = raw.indexOf(delimiter, start);
    if (next === -1) break;
    const part = raw.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('utf8');
    const name = /[;\s]name="([^"]*)"/.exec(head)?.[1];
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    const contentType = /content-type:\s*([^\r\n;]+)/i.exec(head)?.[1];
    if (name !== undefined)
      parts.push({
        name,
        ...(filename !== undefined ? { filename } : {}),
        ...(contentType !== undefined ? { contentType } : {}),
        bytes: part.subarray(split + 4),
      });
    at = next;
  }
  return parts;
}
