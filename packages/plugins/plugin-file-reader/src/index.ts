// @aalis/plugin-file-reader: reads files people send (text and code in UTF-8, GBK/GB18030 or UTF-16, Markdown,
// CSV, PDF, DOCX, XLSX, PPTX) through an agent preprocessor — the only way in, as the specification says. A short
// document's text goes to the model with the message, a long one as an outline plus paged reads through
// read_uploaded_file; files stay in <dataDir>/uploads for plugins.file-reader.retentionHours.
export { decodeText } from './decode-text.js';
export { cutIntoParts } from './document-parts.js';
export { extractDocument } from './extract-document.js';
export { FileReader } from './file-reader.js';
export { type FileReaderConfig, fileReaderConfigSchema } from './file-reader-config.js';
export { default, FILE_READER_PLUGIN } from './file-reader-plugin.js';
export { fileReaderErrors, fileReaderTexts } from './file-reader-texts.js';
export { READ_UPLOADED_FILE_TOOL } from './read-uploaded-file-tool.js';
export { sniffFile } from './sniff-file.js';
export { UploadStore } from './upload-store.js';
export { checkZipBounds } from './zip-bounds.js';
