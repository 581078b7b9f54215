// The history record of a reply a platform could not deliver (`outbound:failed`): a system message in the
// session's history, with the turn id, so the next turn's model knows the people did not see it and the WebUI's
// timeline marks that reply 「未发出」. Only replies of a turn are recorded; commands' answers and notices are not
// part of a conversation. The note is written in the host's language (the model and the terminal read it) and keeps
// its catalogue text, so the session server shows each reader it in theirs.
import { type DeliveryFailure, deliveryFailureNote, deliveryFailureReason } from '@aalis/api-gateway';
import { type Locale, translate } from '@aalis/core';
import { type Message, renderNoticeText, WellKnownMetadataKeys } from '@aalis/schema-message';

/** The message to store for a failure, or undefined when the failure is not a turn's reply. */
export function deliveryFailureRecord(failure: DeliveryFailure, locale: Locale): Message | undefined {
  const { message } = failure;
  if (message.kind !== 'reply' || message.turnId === undefined) return undefined;
  const text = deliveryFailureNote(failure);
  return {
    role: 'system',
    kind: 'delivery-failure',
    content: renderNoticeText(text, (flat) => translate(flat, locale)),
    metadata: {
      [WellKnownMetadataKeys.TurnId]: message.turnId,
      [WellKnownMetadataKeys.Platform]: failure.platform,
      [WellKnownMetadataKeys.DeliveryFailure]: {
        platform: failure.platform,
        code: failure.code,
        reason: deliveryFailureReason(failure),
        text,
      },
    },
    timestamp: Date.now(),
  };
}
