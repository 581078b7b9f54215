// message.speech (docs/session-protocol.md 「Voice replies」): one of her stored replies spoken by the media plugin's
// text-to-speech endpoint, for the page's play button. Only a stored assistant message of a session the account may
// see is spoken — never a text the client sends — so the endpoint cannot be used to read out anything else.
import { media } from '@aalis/api-media';
import { defineErrors } from '@aalis/core';
import { WellKnownMetadataKeys } from '@aalis/schema-message';
import { badParam } from './params.js';
import type { Handler } from './request-handler.js';
import { serverErrors } from './server-errors.js';
import { accessibleSession } from './session-access.js';

export const speechErrors = defineErrors({
  AALIS_WEBUI_REPLY_UNKNOWN: {
    statusCode: 404,
    en: 'This session has no stored reply "{messageId}" to read aloud (it may still be written, or was cleared). Wait for the reply to finish, or reload the conversation.',
    'zh-CN': '这个会话里没有可朗读的回复「{messageId}」（它可能还在写，或已被清空）。请等回复写完，或重新载入对话。',
  },
});

/** The longest message or turn id taken (real ids are far shorter). */
const MAX_ID_CHARS = 200;
/** More model calls than any turn makes. */
const MAX_SEGMENT = 10_000;

export const messageSpeech: Handler<'message.speech'> = async (deps, account, params, { type }) => {
  const session = await accessibleSession(deps, account, params.sessionId, type);
  const { messageId, turnId, segment } = params;
  // A reply is named by its storage id, or — while the page has not had it back from the archive yet — by its turn
  // and segment (the nth model call of the turn: its nth assistant message), as the timeline numbers them.
  const byTurn = messageId === undefined;
  if (!byTurn && (typeof messageId !== 'string' || messageId === '' || messageId.length > MAX_ID_CHARS))
    badParam(type, 'messageId', 'string', messageId, { max: String(MAX_ID_CHARS) });
  if (byTurn && (typeof turnId !== 'string' || turnId === '' || turnId.length > MAX_ID_CHARS))
    badParam(type, 'turnId', 'string', turnId, { max: String(MAX_ID_CHARS) });
  if (byTurn && (typeof segment !== 'number' || !Number.isInteger(segment) || segment < 0 || segment > MAX_SEGMENT))
    badParam(type, 'segment', 'integer', segment, { min: '0', max: String(MAX_SEGMENT) });
  const service = deps.services.selected(media)?.impl;
  if (!service?.speak || service.speaks?.() !== true)
    throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'media.speech' });
  const messages = deps.memory.available ? await deps.memory.use.readAll(session.id) : [];
  const reply = byTurn
    ? messages.filter(
        (message) => message.role === 'assistant' && message.metadata?.[WellKnownMetadataKeys.TurnId] === turnId,
      )[segment as number]
    : messages.find((message) => message.id === messageId && message.role === 'assistant');
  // What the person saw, when the stored content differs from it (the timeline shows the same).
  const visible = reply?.metadata?.[WellKnownMetadataKeys.VisibleContent];
  const text = typeof visible === 'string' ? visible : reply?.content;
  if (typeof text !== 'string' || text.trim() === '')
    throw speechErrors.AALIS_WEBUI_REPLY_UNKNOWN({ messageId: String(byTurn ? `${turnId}#${segment}` : messageId) });
  const voice = await service.speak(text, { sessionId: session.id });
  return { mimeType: voice.mimeType ?? 'audio/ogg', data: voice.data ?? '' };
};
