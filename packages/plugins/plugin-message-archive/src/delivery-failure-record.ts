// The history record of a reply a platform could not deliver (`outbound:failed`): a system message in the
// session's history, with the turn id, so the next turn's model knows the people did not see it and the WebUI's
// timeline marks that reply 「未发出」. Only replies of a turn are recorded; commands' answers and notices are not
// part of a conversation.
import type { DeliveryFailure } from '@aalis/api-gateway';
import { defineCatalogue, type Locale, translate } from '@aalis/core';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';

defineCatalogue({
  'zh-CN': { 'archive.deliveryFailed': '[投递失败] 上面那条回复没有送到 {platform}：{reason}' },
  en: { 'archive.deliveryFailed': '[Delivery failed] The reply above did not reach {platform}: {reason}' },
});

/** The message to store for a failure, or undefined when the failure is not a turn's reply. */
export function deliveryFailureRecord(failure: DeliveryFailure, locale: Locale): Message | undefined {
  const { message } = failure;
  if (message.kind !== 'reply' || message.turnId === undefined) return undefined;
  const reason = failure.reason.replace(/\s+/g, ' ').slice(0, 300);
  return {
    role: 'system',
    kind: 'delivery-failure',
    content: translate({ key: 'archive.deliveryFailed', params: { platform: failure.platform, reason } }, locale),
    metadata: {
      [WellKnownMetadataKeys.TurnId]: message.turnId,
      [WellKnownMetadataKeys.Platform]: failure.platform,
      [WellKnownMetadataKeys.DeliveryFailure]: { platform: failure.platform, code: failure.code, reason },
    },
    timestamp: Date.now(),
  };
}
