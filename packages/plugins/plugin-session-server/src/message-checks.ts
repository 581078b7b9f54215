// The checks a message passes before anything is sent: its length, and each attachment's kind, type, encoding and
// size (decoded). Images must be of a type model APIs take; files and voice recordings may be of any type (the file
// reader and the media plugin sniff their content). A failing check is a coded error and nothing reaches the agent.
import { type Locale, translate } from '@aalis/core';
import { type Attachment, isModelImageType, MODEL_IMAGE_TYPES } from '@aalis/schema-message';
import { badParam } from './params.js';
import type { ServerConfig } from './server-config.js';
import { serverErrors } from './server-errors.js';
import './attachment-texts.js';
import './server-texts.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

export function checkText(config: Pick<ServerConfig, 'maxMessageChars'>, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    // Not describeReceived: nothing of a message's content goes into an error.
    badParam('send', 'text', 'string', value, { max: String(config.maxMessageChars) }, true);
  }
  const length = Array.from(value).length;
  if (length > config.maxMessageChars) {
    throw serverErrors.AALIS_WEBUI_MESSAGE_TOO_LONG({ length, limit: config.maxMessageChars });
  }
  return value;
}

export function checkAttachments(
  config: Pick<ServerConfig, 'maxAttachments' | 'maxAttachmentBytes'>,
  value: unknown,
  locale: Locale = 'en',
): Attachment[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    badParam('send', 'attachments', 'array', value, undefined, true);
  }
  if (value.length > config.maxAttachments) {
    throw serverErrors.AALIS_WEBUI_TOO_MANY_ATTACHMENTS({ count: value.length, limit: config.maxAttachments });
  }
  return value.map((item: unknown, index) => checkImage(config, item, index, locale));
}

function checkImage(
  config: Pick<ServerConfig, 'maxAttachmentBytes'>,
  item: unknown,
  index: number,
  locale: Locale,
): Attachment {
  // The reason in the host's locale for the message; details.reason in English for clients that match it.
  const invalid = (problem: string, params?: Record<string, string>) => {
    const ref = { key: `sessionServer.attachment.${problem}`, ...(params ? { params } : {}) };
    return serverErrors.AALIS_WEBUI_ATTACHMENT_INVALID(
      { index, reason: translate(ref, locale) },
      { details: { reason: translate(ref, 'en') } },
    );
  };
  if (typeof item !== 'object' || item === null) throw invalid('notObject');
  const { type, mimeType, data, name } = item as Record<string, unknown>;
  if (type !== 'image' && type !== 'file' && type !== 'audio')
    throw invalid('kind', { type: JSON.stringify(type) ?? 'undefined' });
  if (typeof data !== 'string' || data === '') throw invalid('data');
  let payload = data;
  let declared = typeof mimeType === 'string' ? mimeType : undefined;
  const dataUrl = /^data:([^;,]+);base64,/.exec(data);
  if (dataUrl) {
    declared ??= dataUrl[1];
    payload = data.slice(dataUrl[0].length);
  }
  if (type === 'image' && (!declared || !isModelImageType(declared))) {
    throw invalid('mimeType', { types: MODEL_IMAGE_TYPES.join(', ') });
  }
  if (type !== 'image' && declared !== undefined && !MIME_TYPE.test(declared)) {
    throw invalid('fileType', { mimeType: JSON.stringify(declared.slice(0, 100)) });
  }
  // The size is checked before decoding anything: base64 is 4 characters per 3 bytes.
  const size = Math.floor((payload.length * 3) / 4) - (payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0);
  if (size > config.maxAttachmentBytes) {
    throw serverErrors.AALIS_WEBUI_ATTACHMENT_TOO_LARGE({ index, size, limit: config.maxAttachmentBytes });
  }
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) throw invalid('base64');
  const attachment: Attachment = { type, data: payload };
  if (declared) attachment.mimeType = declared;
  if (typeof name === 'string' && name !== '') attachment.name = name.slice(0, 200);
  return attachment;
}
