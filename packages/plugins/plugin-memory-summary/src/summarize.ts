// Asks a model for the summary that replaces a stretch of history, merging the previous summary. Long transcripts
// are summarised chunk by chunk, each chunk merged into the summary so far, so no request outgrows the model.
import type { LlmPurpose, LlmToolDefinition, ResolvedModel } from '@aalis/api-llm';
import type { Message } from '@aalis/schema-message';
import { stripLeakedSpecialTokens } from '@aalis/util-text-normalize';
import { summaryErrors } from './summary-errors.js';
import { chunkEntries, type TranscriptLabels, transcriptEntries } from './transcript.js';

/** Smallest transcript chunk, whatever the window (tiny windows then rely on the provider's own limits). */
const MIN_CHUNK_TOKENS = 2048;

export interface SummarizeOptions {
  resolved: ResolvedModel;
  sessionId: string;
  purpose: LlmPurpose;
  /** The summary carried by the last divider, merged into the new one. */
  previous: string | undefined;
  /** Conversation messages to compact, in order. */
  messages: readonly Message[];
  maxSummaryTokens: number;
  entryMaxChars: number;
  /** Renders a catalogue text in the app locale. */
  t(key: string, params?: Record<string, string | number>): string;
  signal: AbortSignal;
  /**
   * A request sharing the conversation's prompt prefix (cache-sharing-request.ts) that covers `previous` and
   * `messages`: tried first; an empty answer falls back to the transcript.
   */
  shared?: { messages: readonly Message[]; tools: readonly LlmToolDefinition[] };
  /** Told when the shared request gave nothing usable and the transcript is used instead. */
  onSharedEmpty?(): void;
}

export function transcriptLabels(t: SummarizeOptions['t']): TranscriptLabels {
  return {
    role: (message) =>
      message.role === 'tool'
        ? t('memorySummary.role.tool', { name: message.name ?? '' }).trim()
        : t(`memorySummary.role.${message.role}`),
    calls: (calls) => t('memorySummary.calls', { calls }),
    attachments: (count) => t('memorySummary.attachments', { count }),
  };
}

/** The transcript budget of one call: room for the prompt, the previous summary and the answer. */
export function chunkBudget({ contextWindow, maxOutput }: { contextWindow: number; maxOutput: number }): number {
  return Math.max(MIN_CHUNK_TOKENS, Math.floor(contextWindow * 0.75) - 2 * maxOutput - 1024);
}

/** The most tokens a summary call may write: the configured cap, within the model's own. */
export function summaryOutputTokens(maxSummaryTokens: number, resolved: ResolvedModel): number {
  return Math.min(maxSummaryTokens, resolved.model.maxOutputTokens);
}

export async function summarize(options: SummarizeOptions): Promise<string> {
  const { resolved, t } = options;
  const maxOutput = summaryOutputTokens(options.maxSummaryTokens, resolved);
  const ask = async (messages: readonly Message[], tools?: readonly LlmToolDefinition[]): Promise<string> => {
    const response = await resolved.provider.impl.chat(
      {
        model: resolved.model.id,
        messages,
        // The conversation's tools, so the prompt's prefix is the same bytes; the summary must not call them.
        ...(tools && tools.length > 0 ? { tools, toolChoice: 'none' as const } : {}),
        maxOutputTokens: maxOutput,
        sessionId: options.sessionId,
        purpose: options.purpose,
      },
      { signal: options.signal },
    );
    return stripLeakedSpecialTokens(response.content).trim();
  };
  if (options.shared) {
    const text = await ask(options.shared.messages, options.shared.tools);
    if (text !== '') return text;
    options.onSharedEmpty?.();
  }
  const entries = transcriptEntries({
    messages: options.messages,
    labels: transcriptLabels(t),
    entryMaxChars: options.entryMaxChars,
  });
  const budget = chunkBudget({ contextWindow: resolved.model.contextWindow, maxOutput });
  let summary = options.previous;
  for (const chunk of chunkEntries({ entries, budgetTokens: budget })) {
    const user = [
      ...(summary ? [t('memorySummary.prompt.previous'), summary, ''] : []),
      t('memorySummary.prompt.transcript'),
      chunk.join('\n'),
    ].join('\n');
    const text = await ask([
      { role: 'system', content: t('memorySummary.prompt.system') },
      { role: 'user', content: user },
    ]);
    if (text === '')
      throw summaryErrors.AALIS_SUMMARY_EMPTY({ model: resolved.model.id, sessionId: options.sessionId });
    summary = text;
  }
  return summary ?? '';
}
