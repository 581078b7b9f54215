// Texts of plugin-file-reader: the read_uploaded_file tool, what the model is told about a file, the notes a
// person gets when a file cannot be read, and coded errors.
import { defineCatalogue, defineErrors } from '@aalis/core';

export const fileReaderTexts = defineCatalogue({
  'zh-CN': {
    'fileReader.tool.read':
      '读一个上传文件的一部分。长文件随消息只给了目录（文件 id 与各部分的开头），用这个工具按部分读正文。',
    'fileReader.tool.read.fileId': '文件 id（消息里附件说明中的 id，如 f0123456789abcdef）。',
    'fileReader.tool.read.part': '要读第几部分，从 1 开始；不给即第 1 部分。',
    'fileReader.kind.text': '文本',
    'fileReader.kind.markdown': 'Markdown',
    'fileReader.kind.csv': 'CSV 表格',
    'fileReader.kind.pdf': 'PDF',
    'fileReader.kind.docx': 'Word 文档',
    'fileReader.kind.xlsx': 'Excel 表格',
    'fileReader.kind.pptx': 'PowerPoint 演示文稿',
    'fileReader.unit.page': '页',
    'fileReader.unit.slide': '张幻灯片',
    'fileReader.unit.sheet': '个工作表',
    'fileReader.unit.line': '行',
    'fileReader.short': '文件 id {id}，{kind}，{units} {unit}，全文如下：\n{text}',
    'fileReader.long':
      '文件 id {id}，{kind}，{units} {unit}，共 {chars} 字，分成 {parts} 部分，太长没有随消息全文给出。目录：\n{outline}\n用 read_uploaded_file（fileId: {id}，part: 部分号）读正文。',
    'fileReader.outline.entry': '第 {part} 部分（{range}）：{start}',
    'fileReader.outline.more': '……另有 {count} 部分没列出',
    'fileReader.range.units': '第 {from}–{to} {unit}',
    'fileReader.range.unit': '第 {from} {unit}',
    'fileReader.encoding': '（编码 {encoding}）',
    'fileReader.truncated': '只读了前 {read} {unit}（共 {total}），上限是 plugins.file-reader.maxPages = {limit}。',
    'fileReader.images': '文档里的图片（描述，最多 {limit} 张）：',
    'fileReader.image.entry': '{index}. {name}：{description}',
    'fileReader.images.more':
      '另有 {count} 张图片没有描述（每个文档最多 {limit} 张，plugins.file-reader.maxImagesPerDocument）。',
    'fileReader.part.header': '文件 {name}（id {id}）第 {part}/{parts} 部分：\n{text}',
    'fileReader.failed': '文件 {name} 没能读出来：{reason} 消息的其余部分照常发出。',
    'fileReader.failed.model': '文件没能读出来：{reason}',
  },
  en: {
    'fileReader.tool.read':
      'Reads one part of an uploaded file. A long file came with its message as an outline only (file id and how each part starts); read its text part by part with this tool.',
    'fileReader.tool.read.fileId': 'The file id (from the attachment note in the message, like f0123456789abcdef).',
    'fileReader.tool.read.part': 'Which part to read, from 1; default 1.',
    'fileReader.kind.text': 'text',
    'fileReader.kind.markdown': 'Markdown',
    'fileReader.kind.csv': 'CSV table',
    'fileReader.kind.pdf': 'PDF',
    'fileReader.kind.docx': 'Word document',
    'fileReader.kind.xlsx': 'Excel workbook',
    'fileReader.kind.pptx': 'PowerPoint presentation',
    'fileReader.unit.page': 'pages',
    'fileReader.unit.slide': 'slides',
    'fileReader.unit.sheet': 'sheets',
    'fileReader.unit.line': 'lines',
    'fileReader.short': 'File id {id}, {kind}, {units} {unit}; its full text:\n{text}',
    'fileReader.long':
      'File id {id}, {kind}, {units} {unit}, {chars} characters in {parts} parts: too long to come with the message. Outline:\n{outline}\nRead the text with read_uploaded_file (fileId: {id}, part: the part number).',
    'fileReader.outline.entry': 'Part {part} ({range}): {start}',
    'fileReader.outline.more': '… and {count, plural, one {# more part} other {# more parts}} not listed',
    'fileReader.range.units': '{unit} {from}–{to}',
    'fileReader.range.unit': '{unit} {from}',
    'fileReader.encoding': ' (encoding {encoding})',
    'fileReader.truncated':
      'Only the first {read} {unit} were read (of {total}); the limit is plugins.file-reader.maxPages = {limit}.',
    'fileReader.images': 'Images in the document (descriptions, at most {limit}):',
    'fileReader.image.entry': '{index}. {name}: {description}',
    'fileReader.images.more':
      '{count, plural, one {# more image was} other {# more images were}} not described (at most {limit} per document, plugins.file-reader.maxImagesPerDocument).',
    'fileReader.part.header': 'File {name} (id {id}), part {part}/{parts}:\n{text}',
    'fileReader.failed': 'The file {name} could not be read: {reason} The rest of the message was sent as usual.',
    'fileReader.failed.model': 'The file could not be read: {reason}',
  },
});

export const fileReaderErrors = defineErrors({
  AALIS_FILE_TOO_LARGE: {
    'zh-CN': '它有 {size} 字节，超过了上限 plugins.file-reader.maxFileBytes = {limit} 字节。',
    en: 'it has {size} bytes, over the limit plugins.file-reader.maxFileBytes = {limit} bytes.',
  },
  AALIS_FILE_ARCHIVE_TOO_LARGE: {
    'zh-CN':
      '它是压缩包格式（DOCX、XLSX、PPTX 都是），解压后超过了上限 plugins.file-reader.maxExpandedBytes = {limit} 字节或 {entries} 个条目，可能是压缩炸弹。',
    en: 'it is a zip archive (as DOCX, XLSX and PPTX are) that expands beyond plugins.file-reader.maxExpandedBytes = {limit} bytes or {entries} entries; it may be a zip bomb.',
  },
  AALIS_FILE_ENCRYPTED: {
    'zh-CN': '它加了密码（{kind}）。请发一份没有密码的。',
    en: 'it is password-protected ({kind}). Send a copy without a password.',
  },
  AALIS_FILE_LEGACY_OFFICE: {
    'zh-CN': '它是加密的 Office 文件或旧的 .doc/.xls/.ppt 格式，读不了。请另存为没有密码的 DOCX、XLSX 或 PPTX 再发。',
    en: 'it is an encrypted Office file or an old .doc/.xls/.ppt file, which cannot be read. Save it as DOCX, XLSX or PPTX without a password and send it again.',
  },
  AALIS_FILE_CORRUPT: {
    'zh-CN': '它不是一个完好的 {kind} 文件（{reason}）。请检查文件是否完整。',
    en: 'it is not an intact {kind} file ({reason}). Check that the file is complete.',
  },
  AALIS_FILE_UNSUPPORTED: {
    'zh-CN': '这种文件（{type}）读不了。能读的有：文本与代码、Markdown、CSV、PDF、DOCX、XLSX、PPTX。',
    en: 'this kind of file ({type}) cannot be read. Readable: text and code, Markdown, CSV, PDF, DOCX, XLSX, PPTX.',
  },
  AALIS_FILE_EMPTY: {
    'zh-CN': '它是空的，或者里面没有可读的文字（扫描版 PDF 只有图片）。',
    en: 'it is empty or holds no readable text (a scanned PDF holds only images).',
  },
  AALIS_FILE_NO_DATA: {
    'zh-CN': '附件没有带内容（平台没有给出文件本身）。',
    en: 'the attachment carries no content (the platform did not pass the file itself).',
  },
  AALIS_FILE_NOT_FOUND: {
    'zh-CN': '本会话没有文件 {id}，或它已过了保留期（plugins.file-reader.retentionHours）被删除。请让对方重新发送。',
    en: 'This session has no file {id}, or it was removed after its retention time (plugins.file-reader.retentionHours). Ask for it to be sent again.',
  },
  AALIS_FILE_PART_OUT_OF_RANGE: {
    'zh-CN': '文件 {id} 只有 {parts} 部分，没有第 {part} 部分。',
    en: 'The file {id} has {parts, plural, one {# part} other {# parts}}; there is no part {part}.',
  },
  AALIS_FILE_STORE_FAILED: {
    'zh-CN': '没能存下文件：{reason}。请检查数据目录是否可写、磁盘是否已满。',
    en: 'the file could not be stored: {reason}. Check that the data directory is writable and the disk not full.',
  },
});
