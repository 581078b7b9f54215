// XLSX → text per sheet through exceljs: each row a line of tab-separated cell texts, the sheet's name first.
import ExcelJS from 'exceljs';
import type { ExtractedDocument, ExtractLimits } from './extracted-document.js';
import { fileReaderErrors } from './file-reader-texts.js';
import { archiveImages, boundedArchive, openArchive } from './office-archive.js';

export async function extractXlsx(
  bytes: Uint8Array,
  limits: ExtractLimits,
): Promise<ExtractedDocument & { imagesFound: number }> {
  const entries = boundedArchive(bytes, 'XLSX', limits);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes.slice().buffer);
  } catch (error) {
    throw fileReaderErrors.AALIS_FILE_CORRUPT({ kind: 'XLSX', reason: (error as Error).message });
  }
  const units: string[] = [];
  for (const sheet of workbook.worksheets.slice(0, limits.maxPages)) {
    const lines = [`# ${sheet.name}`];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell) => {
        cells.push(cellText(cell).replace(/[\t\r\n]+/g, ' '));
      });
      lines.push(cells.join('\t').trimEnd());
    });
    units.push(lines.join('\n'));
  }
  const { images, found } = await archiveImages(await openArchive(bytes, 'XLSX'), entries, limits);
  return { kind: 'xlsx', unit: 'sheet', units, totalUnits: workbook.worksheets.length, images, imagesFound: found };
}

function cellText(cell: ExcelJS.Cell): string {
  try {
    return cell.text ?? '';
  } catch {
    // A formula whose cached result is missing has no text; its formula says what it is.
    return cell.formula ? `=${cell.formula}` : '';
  }
}
