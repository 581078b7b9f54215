// The history record of a notice the host sent outside a turn (`outbound:message` with a catalogue text and no turn
// id: a budget, flow or attachment notice), so the conversation still shows it after a reload, in each reader's
// language. An event marker: never sent to a model, never counted. Command answers carry no catalogue text (they are
// stored as their command's answer); a turn's own [错误]/[系统] notice is its turn record's error.
import { type Message, type OutgoingMessage, WellKnownMetadataKeys } from '@aalis/schema-message';

/** The marker to store for a sent message, or undefined when it is not a notice outside a turn. */
export function noticeRecord(message: OutgoingMessage, now: number): Message | undefined {
  if (message.text === undefined || message.kind === 'reply' || message.turnId !== undefined) return undefined;
  return {
    role: 'system',
    kind: 'event-marker',
    content: message.content,
    metadata: {
      ...(message.platform !== undefined ? { [WellKnownMetadataKeys.Platform]: message.platform } : {}),
      // The input it answers (a held-back message): the timeline shows the notice after it.
      ...(message.replyTo !== undefined ? { [WellKnownMetadataKeys.ReplyTo]: message.replyTo } : {}),
      [WellKnownMetadataKeys.Notice]: { kind: message.kind, text: message.text },
    },
    timestamp: now,
  };
}
