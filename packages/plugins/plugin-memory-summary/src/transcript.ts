// The compacted messages as a plain-text transcript for the summarizer, cut into chunks that fit its model. A text
// transcript (not the raw message list) keeps the request a valid provider sequence whatever the stored history
// holds: half tool-call groups, reasoning, structured-output envelopes.
import { estimateTextTokens } from '@aalis/context-budget';
import { hasToolCalls, type Message, WellKnownMetadataKeys } from '@aalis/schema-message';

export interface TranscriptLabels {
  role(message: Message): string;
  calls(names: string): string;
  attachments(count: number): string;
}

function cut(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}…`;
}

/** One line (or paragraph) per conversation message, each at most `entryMaxChars` long. */
export function transcriptEntries({
  messages,
  labels,
  entryMaxChars,
}: {
  messages: readonly Message[];
  labels: TranscriptLabels;
  entryMaxChars: number;
}): string[] {
  return messages.map((message) => {
    const visible = message.metadata?.[WellKnownMetadataKeys.VisibleContent];
    const parts = [message.role === 'assistant' && typeof visible === 'string' ? visible : message.content];
    if (hasToolCalls(message)) {
      const calls = message.toolCalls.map((call) => `${call.function.name}(${call.function.arguments})`).join(', ');
      parts.push(`[${labels.calls(calls)}]`);
    }
    if (message.attachments?.length) {
      const described = message.attachments.map((attachment) => attachment.description).filter(Boolean);
      parts.push(
        `[${labels.attachments(message.attachments.length)}${described.length ? `: ${described.join('; ')}` : ''}]`,
      );
    }
    const text = parts.filter((part) => part.trim() !== '').join(' ');
    return `${labels.role(message)}: ${cut(text, entryMaxChars)}`;
  });
}

/** Consecutive entries grouped so that each chunk stays within `budgetTokens` (a longer single entry stands alone). */
export function chunkEntries({
  entries,
  budgetTokens,
}: {
  entries: readonly string[];
  budgetTokens: number;
}): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let used = 0;
  for (const entry of entries) {
    const tokens = estimateTextTokens(entry) + 1;
    if (current.length > 0 && used + tokens > budgetTokens) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(entry);
    used += tokens;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
