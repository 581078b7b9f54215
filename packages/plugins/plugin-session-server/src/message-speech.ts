// message.speech (docs/session-protocol.md 「Voice replies」): one of her stored replies spoken by the media plugin's
// text-to-speech endpoint, for the page's play button. Only a stored assistant message of a session the account may
// see is spoken — never a text the client sends — so the endpoint cannot be used to read out anything else.
import { media } from '@aalis/api-media';
import { defineErrors } from '@aalis/core';
import type { Account, ResultOf } from '@aalis/session-client';
import { badParam } from './params.js';
import type { ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';
import { accessibleSession } from './session-access.js';

export const speechErrors = defineErrors({
  AALIS_WEBUI_REPLY_UNKNOWN: {
    statusCode: 404,
    en: 'This session has no stored reply "{messageId}" to read aloud (it may still be written, or was cleared). Wait for the reply to finish, or reload the conversation.',
    'zh-CN': '这个会话里没有可朗读的回复「{messageId}」（它可能还在写，或已被清空）。请等回复写完，或重新载入对话。',
  },
});

/** The longest message id taken (storage ids are far shorter). */
const MAX_ID_CHARS = 200;

export async function messageSpeech(
  deps: ServerDeps,
  account: Account,
  params: Record<string, unknown>,
): Promise<ResultOf<'message.speech'>> {
  const session = await accessibleSession(deps, account, params.sessionId, 'message.speech');
  const { messageId } = params;
  if (typeof messageId !== 'string' || messageId === '' || messageId.length > MAX_ID_CHARS)
    badParam('message.speech', 'messageId', 'string', messageId, { max: String(MAX_ID_CHARS) });
  const service = deps.services.selected(media)?.impl;
  if (!service?.speak || service.speaks?.() !== true)
    throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'media.speech' });
  const messages = deps.memory.available ? await deps.memory.use.readAll(session.id) : [];
  const reply = messages.find((message) => message.id === messageId && message.role === 'assistant');
  if (!reply || typeof reply.content !== 'string' || reply.content.trim() === '')
    throw speechErrors.AALIS_WEBUI_REPLY_UNKNOWN({ messageId });
  const voice = await service.speak(reply.content, { sessionId: session.id });
  return { mimeType: voice.mimeType ?? 'audio/ogg', data: voice.data ?? '' };
}
