// A summary request that shares the conversation's prompt prefix: the session's latest conversation call (its tool
// definitions and messages, byte for byte), then one user message asking for the summary, carrying as a transcript
// the active messages that call did not show — older ones the history window or trimming had dropped, and what was
// stored after it (the turn's final reply, turns that ran since). Providers cache prompts by prefix, so only that
// last message is new input, where a transcript request re-sends the whole history uncached.
//
// The call stands for the active history only when every stored message it shows is still active and what it shows
// is one unbroken stretch of it; otherwise (another model, a prompt from before the last compaction, a tool group
// trimming had folded into one line), or when the request would not fit the model, there is no plan and the
// compaction summarises a transcript as before.
import { estimateMessagesTokens, estimateToolDefinitionTokens, SAFETY_MARGIN_TOKENS } from '@aalis/context-budget';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import type { ConversationPrompt } from './conversation-prompts.js';
import { type TranscriptLabels, transcriptEntries } from './transcript.js';

export interface CacheSharingOptions {
  prompt: ConversationPrompt;
  /** The active history's conversation messages, in order: everything the summary replaces. */
  active: readonly Message[];
  /** The summary being replaced (carried by the divider before the active history). */
  previous: string | undefined;
  /** How the prompt shows a summary (the head block), to tell whether `prompt` already carries `previous`. */
  summaryBlock(summary: string): string;
  labels: TranscriptLabels;
  entryMaxChars: number;
  /** Renders a catalogue text in the app locale. */
  t(key: string, params?: Record<string, string | number>): string;
  /** The summarising model's window and the most tokens the summary may take. */
  contextWindow: number;
  maxOutput: number;
}

export type CacheSharingPlan =
  | { status: 'planned'; messages: Message[]; tools: ConversationPrompt['tools'] }
  /** Why the prompt cannot be reused; the caller falls back to a transcript. */
  | { status: 'unusable'; reason: string };

/** Where the active history's messages that `prompt` shows start and end (`end` exclusive), or why it cannot say. */
export function shownStretch(
  prompt: ConversationPrompt,
  active: readonly Message[],
): { first: number; end: number } | { reason: string } {
  const ids = new Set<string>();
  const callIds = new Set<string>();
  for (const message of prompt.messages) {
    if (message.id !== undefined) ids.add(message.id);
    for (const call of message.toolCalls ?? []) callIds.add(call.id);
  }
  const activeIds = new Set(active.map((message) => message.id));
  for (const id of ids) {
    if (!activeIds.has(id)) return { reason: 'the prompt shows messages that are no longer in the active history' };
  }
  // Stored messages the prompt shows: by storage id (history), or as this call's own turn — its inputs and the tool
  // groups whose calls the prompt carries (the turn's copies of them have no storage id).
  const shown = active.map((message) => {
    if (message.id !== undefined && ids.has(message.id)) return true;
    if (message.metadata?.[WellKnownMetadataKeys.TurnId] !== prompt.turnId) return false;
    if (message.role === 'user') return true;
    if (message.role === 'tool') return message.toolCallId !== undefined && callIds.has(message.toolCallId);
    return message.role === 'assistant' && (message.toolCalls ?? []).some((call) => callIds.has(call.id));
  });
  const first = shown.indexOf(true);
  if (first < 0) return { reason: 'the prompt shows none of the active history' };
  const end = shown.lastIndexOf(true) + 1;
  if (shown.slice(first, end).includes(false)) {
    return { reason: 'the prompt leaves out messages inside the stretch of history it shows' };
  }
  return { first, end };
}

export function cacheSharingRequest(options: CacheSharingOptions): CacheSharingPlan {
  const { prompt, active, previous, labels, entryMaxChars, t } = options;
  const stretch = shownStretch(prompt, active);
  if ('reason' in stretch) return { status: 'unusable', reason: stretch.reason };
  const transcript = (messages: readonly Message[]) =>
    transcriptEntries({ messages, labels, entryMaxChars }).join('\n');
  const previousShown =
    previous === undefined || prompt.messages.some((message) => message.content === options.summaryBlock(previous));
  const earlier = active.slice(0, stretch.first);
  const later = active.slice(stretch.end);
  const sections = [t('memorySummary.prompt.pause'), t('memorySummary.prompt.system')];
  if (previous !== undefined) {
    sections.push(
      previousShown
        ? t('memorySummary.prompt.previousShown', { header: t('memorySummary.header') })
        : `${t('memorySummary.prompt.previous')}\n${previous}`,
    );
  }
  if (earlier.length > 0) sections.push(`${t('memorySummary.prompt.earlier')}\n${transcript(earlier)}`);
  if (later.length > 0) sections.push(`${t('memorySummary.prompt.later')}\n${transcript(later)}`);
  const messages: Message[] = [...prompt.messages, { role: 'user', content: sections.join('\n\n') }];
  const tokens = estimateMessagesTokens(messages) + estimateToolDefinitionTokens(prompt.tools);
  if (tokens + options.maxOutput + SAFETY_MARGIN_TOKENS > options.contextWindow) {
    return { status: 'unusable', reason: `the request would not fit the model (${tokens} tokens of prompt)` };
  }
  return { status: 'planned', messages, tools: prompt.tools };
}
