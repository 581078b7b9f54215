// History compaction per 「压缩历史时发生什么」: available = contextTokens − reserveForOutput, watermark =
// floor(available × compactRatio). Above the watermark, older messages become a summary and the most recent
// keepRecent messages stay verbatim, never splitting an assistant tool-call message from its results.
import { estimateMessagesTokens, estimateTextTokens } from '@aalis/context-budget';
import { groupToolCalls, type Message } from '@aalis/schema-message';
import type { LimitsConfig } from './config.js';
import type { RuntimeTexts } from './texts.js';

export interface CompactionBudget {
  /** contextTokens − reserveForOutput. */
  available: number;
  /** floor(available × compactRatio): history above it is compacted. */
  watermark: number;
}

export function compactionBudget(limits: Pick<LimitsConfig, 'contextTokens' | 'reserveForOutput' | 'compactRatio'>) {
  const available = limits.contextTokens - limits.reserveForOutput;
  return { available, watermark: Math.floor(available * limits.compactRatio) } satisfies CompactionBudget;
}

export interface HistoryState {
  /** The base system prompt: framework rules and the application's systemPrompt (not the page snapshot). */
  basePrompt: string;
  summary: string;
  messages: readonly Message[];
}

/** The context counted for the compaction decision: base system prompt, summary and recent messages. */
export function estimateHistoryTokens({ basePrompt, summary, messages }: HistoryState): number {
  return estimateTextTokens(basePrompt) + estimateTextTokens(summary) + estimateMessagesTokens(messages);
}

export interface CompactionSplit {
  /** Messages to summarise. */
  older: Message[];
  /** Messages kept verbatim: at least keepRecent, starting at a tool-group boundary. */
  kept: Message[];
}

/**
 * Splits history into the part to summarise and the part to keep. The kept part starts at a unit boundary of
 * groupToolCalls, so it may hold a few more than keepRecent messages. `protect` (the message the user sent for the
 * run in progress) is always kept verbatim, ahead of the kept part, even with keepRecent 0: a request must never
 * lose what the user just asked. Undefined when nothing older remains.
 */
export function splitForCompaction(
  messages: readonly Message[],
  keepRecent: number,
  protect?: Message,
): CompactionSplit | undefined {
  const grouped = groupToolCalls(messages);
  const all = grouped.messages;
  let start = Math.max(0, all.length - keepRecent);
  for (const unit of grouped.units) {
    if (unit.start <= start && start < unit.end) {
      start = unit.start;
      break;
    }
  }
  const protectedAt = protect ? all.indexOf(protect) : -1;
  if (protectedAt !== -1 && protectedAt < start) {
    // A user message is a unit of its own, so taking it out of the older part splits no tool group.
    const older = [...all.slice(0, protectedAt), ...all.slice(protectedAt + 1, start)];
    if (older.length === 0) return undefined;
    return { older, kept: [all[protectedAt]!, ...all.slice(start)] };
  }
  if (start === 0) return undefined;
  return { older: all.slice(0, start), kept: all.slice(start) };
}

/** Summarises messages into a text; the session sends it to the model client. */
export type Summarize = (messages: Message[]) => Promise<string>;

export interface CompactHistoryOptions extends HistoryState {
  limits: LimitsConfig;
  texts: RuntimeTexts;
  summarize: Summarize;
  /** The run's user message: never summarised away (see splitForCompaction). */
  protect?: Message;
}

export interface CompactionResult {
  compacted: boolean;
  summary: string;
  messages: Message[];
  tokensBefore: number;
  tokensAfter: number;
}

export async function compactHistory(options: CompactHistoryOptions): Promise<CompactionResult> {
  const { limits, texts, summarize, basePrompt, summary, messages } = options;
  const tokensBefore = estimateHistoryTokens(options);
  const unchanged = { compacted: false, summary, messages: [...messages], tokensBefore, tokensAfter: tokensBefore };
  if (tokensBefore <= compactionBudget(limits).watermark) return unchanged;
  const split = splitForCompaction(messages, limits.keepRecent, options.protect);
  if (!split) return unchanged;
  const nextSummary = (await summarize(buildSummaryRequest({ texts, summary, older: split.older }))).trim();
  const tokensAfter = estimateHistoryTokens({ basePrompt, summary: nextSummary, messages: split.kept });
  return { compacted: true, summary: nextSummary, messages: split.kept, tokensBefore, tokensAfter };
}

/** The summarising request: the summary prompt, then the earlier summary and the older messages as a transcript. */
export function buildSummaryRequest({
  texts,
  summary,
  older,
}: {
  texts: RuntimeTexts;
  summary: string;
  older: readonly Message[];
}): Message[] {
  const lines: string[] = [];
  if (summary !== '') lines.push(texts.previousSummary, summary, '');
  for (const message of older) lines.push(renderMessage(message));
  return [
    { role: 'system', content: texts.summaryPrompt },
    { role: 'user', content: lines.join('\n') },
  ];
}

function renderMessage(message: Message): string {
  if (message.role === 'tool') return `[tool ${message.name ?? ''} → ${message.toolCallId ?? ''}] ${message.content}`;
  const calls = (message.toolCalls ?? []).map((call) => ` [call ${call.function.name}(${call.function.arguments})]`);
  return `[${message.role}] ${message.content}${calls.join('')}`;
}

/** The system prompt of a turn: base rules, the application's prompt, the summary, then the current page. */
export function composeSystemPrompt({
  basePrompt,
  summary,
  pagePrompt,
  texts,
}: {
  basePrompt: string;
  summary: string;
  pagePrompt: string;
  texts: RuntimeTexts;
}): string {
  const parts = [basePrompt];
  if (summary !== '') parts.push(`${texts.summaryHeading}\n${summary}`);
  if (pagePrompt !== '') parts.push(pagePrompt);
  return parts.join('\n\n');
}

/** Framework rules followed by the application's role description. */
export function basePromptOf({ texts, systemPrompt }: { texts: RuntimeTexts; systemPrompt: string }): string {
  return systemPrompt === '' ? texts.baseRules : `${texts.baseRules}\n\n${systemPrompt}`;
}
