// The note of a reply a platform could not deliver, as a catalogue text: the message archive stores it with the
// failure (the host's language for the model and the terminal), the session server renders it for each reader.
import { defineCatalogue } from '@aalis/core';
import type { NoticeText } from '@aalis/schema-message';
import type { DeliveryFailure } from './gateway-service.js';

defineCatalogue({
  'zh-CN': { 'gateway.deliveryFailed': '[投递失败] 上面那条回复没有送到 {platform}：{reason}' },
  en: { 'gateway.deliveryFailed': '[Delivery failed] The reply above did not reach {platform}: {reason}' },
});

/** The failure's reason on one line of at most 300 characters (a platform's error may be long). */
export function deliveryFailureReason(failure: Pick<DeliveryFailure, 'reason'>): string {
  return failure.reason.replace(/\s+/g, ' ').slice(0, 300);
}

export function deliveryFailureNote(failure: Pick<DeliveryFailure, 'platform' | 'reason'>): NoticeText {
  return {
    key: 'gateway.deliveryFailed',
    params: { platform: failure.platform, reason: deliveryFailureReason(failure) },
  };
}
