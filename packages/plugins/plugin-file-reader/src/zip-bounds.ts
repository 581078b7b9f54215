// DOCX, XLSX and PPTX are zip archives, and the parsers inflate them whole: a small file can expand to gigabytes.
// Before any parser sees one, it is inflated here in a stream that counts the real output (not the sizes the
// archive declares, which a bomb can fake) and stops at the bound; the entries' names come back for the callers
// that look for embedded images.
import { Unzip, UnzipInflate } from 'fflate';

export interface ZipBounds {
  maxExpandedBytes: number;
  maxEntries: number;
}

export type ZipCheck =
  | { ok: true; entries: string[]; expandedBytes: number }
  | { ok: false; reason: 'too-large' | 'corrupt'; detail: string };

export function checkZipBounds(bytes: Uint8Array, bounds: ZipBounds): ZipCheck {
  const entries: string[] = [];
  let expanded = 0;
  let exceeded: string | undefined;
  let failure: string | undefined;
  const unzip = new Unzip((file) => {
    if (exceeded || failure) return;
    entries.push(file.name);
    if (entries.length > bounds.maxEntries) {
      exceeded = `more than ${bounds.maxEntries} entries`;
      return;
    }
    file.ondata = (error, chunk) => {
      if (error) {
        failure ??= error.message;
        return;
      }
      expanded += chunk.length;
      if (expanded > bounds.maxExpandedBytes && !exceeded) {
        exceeded = `more than ${bounds.maxExpandedBytes} bytes`;
        file.terminate();
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    // Pushed in slices so that inflation stops soon after the bound instead of after the whole archive.
    const slice = 64 * 1024;
    for (let offset = 0; offset < bytes.length && !exceeded && !failure; offset += slice) {
      unzip.push(bytes.subarray(offset, offset + slice), offset + slice >= bytes.length);
    }
  } catch (error) {
    failure ??= error instanceof Error ? error.message : String(error);
  }
  if (exceeded) return { ok: false, reason: 'too-large', detail: exceeded };
  if (failure) return { ok: false, reason: 'corrupt', detail: failure };
  if (entries.length === 0) return { ok: false, reason: 'corrupt', detail: 'no entries' };
  return { ok: true, entries, expandedBytes: expanded };
}
