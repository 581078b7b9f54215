// Texts of the attachment checks for files and voice recordings (images keep theirs in server-texts.ts).
import { defineCatalogue } from '@aalis/core';

defineCatalogue({
  'zh-CN': {
    'sessionServer.attachment.kind': 'type 应为 "image"、"file" 或 "audio"，实际为 {type}',
    'sessionServer.attachment.fileType': 'mimeType 应为「类型/子类型」形式（如 application/pdf），实际为 {mimeType}',
  },
  en: {
    'sessionServer.attachment.kind': 'type must be "image", "file" or "audio", not {type}',
    'sessionServer.attachment.fileType':
      'mimeType must have the form type/subtype (like application/pdf), not {mimeType}',
  },
});
