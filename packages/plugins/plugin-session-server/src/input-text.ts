// What a person wrote, from an archived input: the archive stores `[time] speaker: text` (api-message-archive's
// buildIncomingContent); the timeline shows the text. The time annotation is always first; the speaker prefix is
// removed only when it is the input's own sender name or id, so a message that itself contains "x: " survives.
import { sanitizeName } from '@aalis/api-message-archive';

const TIME_ANNOTATION = /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}\] /;

export function inputText(content: string, sender: { senderId?: string; senderName?: string }): string {
  if (!TIME_ANNOTATION.test(content)) return content;
  const rest = content.replace(TIME_ANNOTATION, '');
  for (const name of [sender.senderName, sender.senderId]) {
    const speaker = sanitizeName(name);
    if (speaker !== '' && rest.startsWith(`${speaker}: `)) return rest.slice(speaker.length + 2);
  }
  // Speakers may be decorated (an owner's account on another platform, a room nickname): a short leading name.
  const decorated = /^[^:\n]{1,80}: /.exec(rest);
  if (decorated && (sender.senderName !== undefined || sender.senderId !== undefined)) {
    const candidate = decorated[0].slice(0, -2);
    if ([sender.senderName, sender.senderId].some((name) => name && candidate.includes(sanitizeName(name)))) {
      return rest.slice(decorated[0].length);
    }
  }
  return rest;
}
