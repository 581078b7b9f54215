// read_uploaded_file: one part of a file stored by the preprocessor, for the session it was sent in.
import { closedParameters, type Tool } from '@aalis/api-tools';
import { type I18n, translatorOf } from '@aalis/core';
import { fileReaderErrors } from './file-reader-texts.js';
import type { UploadStore } from './upload-store.js';

export const READ_UPLOADED_FILE_TOOL = 'read_uploaded_file';

export function readUploadedFileTool(store: UploadStore, i18n: I18n): Tool<{ fileId: string; part?: number }> {
  const t = translatorOf(i18n);
  return {
    name: READ_UPLOADED_FILE_TOOL,
    description: t('fileReader.tool.read'),
    parameters: closedParameters(
      {
        fileId: { type: 'string', minLength: 1, maxLength: 64, description: t('fileReader.tool.read.fileId') },
        part: { type: 'integer', minimum: 1, description: t('fileReader.tool.read.part') },
      },
      ['fileId'],
    ),
    async handler({ fileId, part = 1 }, context) {
      const id = fileId.trim();
      const record = await store.record(id);
      // Another session's file is not found either: its id says nothing to a session that was not sent it.
      if (!record || record.sessionId !== context.sessionId) throw fileReaderErrors.AALIS_FILE_NOT_FOUND({ id });
      if (part > record.parts) throw fileReaderErrors.AALIS_FILE_PART_OUT_OF_RANGE({ id, part, parts: record.parts });
      const text = await store.part(id, part - 1);
      if (text === undefined) throw fileReaderErrors.AALIS_FILE_NOT_FOUND({ id });
      return t('fileReader.part.header', { name: record.name, id, part, parts: record.parts, text });
    },
  };
}
