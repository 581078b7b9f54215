// plugins.file-reader: the limits on what is read, how a long document is cut into parts, and how long files stay.
import { type Infer, s } from '@aalis/core';

export const fileReaderConfigSchema = s
  .object({
    maxFileBytes: s
      .number()
      .integer()
      .min(1_024)
      .default(20 * 1024 * 1024)
      .describe('Largest file read, in bytes; a larger one is refused with a note naming this limit.'),
    maxPages: s
      .number()
      .integer()
      .min(1)
      .default(500)
      .describe('Pages (PDF), slides (PPTX) or sheets (XLSX) read from one file; the rest is left out with a note.'),
    maxExpandedBytes: s
      .number()
      .integer()
      .min(1_024)
      .default(200 * 1024 * 1024)
      .describe('DOCX, XLSX and PPTX are zip archives: the most one may expand to before it is refused (zip bombs).'),
    maxArchiveEntries: s
      .number()
      .integer()
      .min(10)
      .default(10_000)
      .describe('The most entries a DOCX, XLSX or PPTX archive may hold.'),
    inlineChars: s
      .number()
      .integer()
      .min(200)
      .default(8_000)
      .describe(
        'A document up to this many characters goes to the model with the message; a longer one as an outline.',
      ),
    partChars: s
      .number()
      .integer()
      .min(500)
      .default(8_000)
      .describe('The size of one part read through read_uploaded_file, in characters.'),
    maxImagesPerDocument: s
      .number()
      .integer()
      .min(0)
      .default(5)
      .describe(
        'Images inside a PDF, DOCX, XLSX or PPTX described through the media service, per document (0 = none).',
      ),
    retentionHours: s
      .number()
      .min(1)
      .default(168)
      .describe('How long an uploaded file is kept in <dataDir>/uploads for read_uploaded_file, in hours.'),
  })
  .describe('Reads files people send (text, Markdown, CSV, PDF, DOCX, XLSX, PPTX) for the model.');

export type FileReaderConfig = Infer<typeof fileReaderConfigSchema>;
