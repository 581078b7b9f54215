// trimMessages(): the document's 5-step hard trim of the list about to be sent (上下文裁剪算法). Step 1 cuts history
// in whole units from head and history alone, so between two drops the prefix sent to the model stays byte-identical.
import type { Message } from '@aalis/schema-message';
import { compactToolGroup } from './compact-tool-group.js';
import { estimateMessageTokens, type MessageTokenEstimator } from './estimate-tokens.js';
import type { HistoryTrimIndex } from './history-trim-index.js';
import { DEFAULT_CONTINUATION_PROMPT, DEFAULT_TOOL_CALL_SUMMARY } from './messages.js';
import { shortenText } from './shorten-text.js';
import { trimBudget } from './trim-budget.js';
import {
  defaultInputs,
  listOfArray,
  listOfParts,
  segmentsOf,
  type TrimEntry,
  type TrimParts,
  type TrimSegments,
} from './trim-segments.js';

/** Tool results longer than this are cut to RESULT_KEEP_CHARS (steps 2 and 5). */
export const LONG_RESULT_CHARS = 1500;
export const RESULT_KEEP_CHARS = 500;
/** Reasoning longer than this is cut (step 2): older entries keep REASONING_KEEP_CHARS, the newest NEWEST_REASONING_KEEP_CHARS. */
export const LONG_REASONING_CHARS = 200;
export const REASONING_KEEP_CHARS = 200;
export const NEWEST_REASONING_KEEP_CHARS = 400;
/** Step 4 never cuts an injected system message below this many characters. */
export const INJECTED_KEEP_CHARS = 200;
/** The continuation prompt follows a trim through step 4 that left at least this many messages fewer. */
export const CONTINUATION_MIN_REMOVED = 6;

/** The list to trim: one array and where its segments lie, or its parts (the history a segment of its log). */
export type TrimList =
  | { messages: readonly Message[]; segments: TrimSegments; parts?: undefined }
  | {
      /** Head, history segment and this turn: the same trim, without building the list (see TrimParts). */
      parts: TrimParts;
      messages?: undefined;
      segments?: undefined;
    };

export type TrimOptions = TrimList & TrimSettings;

export interface TrimSettings {
  /**
   * Indices (into `messages`) of this turn's inputs: the user messages that opened or joined the turn and the
   * instruction blocks of host-notice / delegation turns. Never changed; the continuation prompt goes after the
   * last. Default: the user messages of this turn.
   */
  inputs?: readonly number[];
  /**
   * Indices of this turn's instruction blocks (delegation, host notice, idle prompt): step 4 never shortens or
   * deletes them. The delegation and host-notice blocks are inputs as well; the idle prompt is not (it is only
   * left to step 5 when it is the last message). Default: none besides the inputs.
   */
  instructions?: readonly number[];
  contextWindow: number;
  maxOutputTokens: number;
  /** Default 1. */
  trimThresholdRatio?: number;
  /** Token quota of the injected system messages (step 4). Default 4096. */
  memoryTokenBudget?: number;
  /** Tokens the request carries besides the messages (tool definitions), counted with the head. Default 0. */
  fixedTokens?: number;
  /**
   * Default: the zh-CN text of the catalogue. A function is called only when the prompt is inserted (a trim through
   * step 4), so a caller that translates it pays nothing on the calls that need none.
   */
  continuationPrompt?: string | (() => string);
  /** Metadata of the inserted continuation prompt (the caller marks it as its own block, e.g. its injector). */
  continuationMetadata?: Readonly<Record<string, unknown>>;
  /**
   * Compaction line with `{name}` and `{result}`. Default: the zh-CN text of the catalogue. A function is called
   * only when step 2 compacts a group.
   */
  toolCallSummary?: string | (() => string);
  estimator?: MessageTokenEstimator;
  /**
   * The conversation's incremental copy of its history segment: when given (and the estimator is the default), a
   * call costs what the history added since the previous call plus what is sent, with the same result.
   */
  historyIndex?: HistoryTrimIndex;
}

export type TrimStep = 1 | 2 | 3 | 4 | 5;

export interface TrimResult {
  messages: Message[];
  /** The estimate of each of `messages` (the estimator's, as the trim counted it), in the same order. */
  messageTokens: number[];
  budget: number;
  unit: number;
  /** Steps that ran: 1 when the history exceeded its available share, 2–5 when the estimate was still over budget. */
  steps: TrimStep[];
  /** Input messages minus output messages, not counting an inserted continuation prompt. */
  removed: number;
  /** History messages dropped by steps 1 and 3. */
  droppedHistory: number;
  /** The multiple of the unit the history cut reached (0 = nothing dropped). */
  droppedUnits: number;
  /** token:usage `trimmed`: the history exceeded its available share, or the untrimmed estimate the budget. */
  trimmed: boolean;
  /** token:usage `untrimmedHistory`: history plus this turn's tool calls and results, before trimming. */
  untrimmedHistory: number;
  /** Estimate of the untrimmed list (with fixedTokens). */
  untrimmedTokens: number;
  /** Estimate of the result (with fixedTokens and any continuation prompt). */
  tokens: number;
  /** Still over budget after step 5: only protected and step-5 material was left to cut. */
  overBudget: boolean;
  continuationInserted: boolean;
}

/** Trims `messages` to the budget. The input list and its messages are never mutated. */
export function trimMessages(options: TrimOptions): TrimResult {
  return trimList(options, true);
}

/**
 * trimMessages without its shortcut for a list that already fits (the list as it is, no cut computed): the
 * reference the property tests hold the shortcut to.
 */
export function trimMessagesFully(options: TrimOptions): TrimResult {
  return trimList(options, false);
}

function trimList(options: TrimOptions, shortcut: boolean): TrimResult {
  // Plain reads and loops rather than destructuring defaults, iterated pairs and closures up front: this runs on
  // every model call, and on a one-session process mostly before V8 optimises it.
  const estimator = options.estimator ?? estimateMessageTokens;
  const fixedTokens = options.fixedTokens ?? 0;
  const list = options.parts ? listOfParts(options.parts) : listOfArray(options.messages, options.segments);
  const { budget, unit } = trimBudget(options);
  const inputIndices = options.inputs ?? defaultInputs(list);
  const instructionIndices = options.instructions ?? [];
  checkIndices('input', inputIndices, list.length);
  checkIndices('instruction', instructionIndices, list.length);
  if (!Number.isFinite(fixedTokens) || fixedTokens < 0) {
    throw new RangeError(`trimMessages: fixedTokens must be a finite number ≥ 0, got ${fixedTokens}.`);
  }

  const segments = segmentsOf(list, estimator, options.historyIndex);
  const { head, history, turn } = segments;
  let headTokens = 0;
  for (let index = 0; index < head.length; index++) headTokens += head[index]!.tokens;
  headTokens += fixedTokens;
  const historyTokens = history.tokens;
  let turnTokens = 0;
  let turnGroupTokens = 0;
  for (let index = 0; index < turn.length; index++) {
    const entry = turn[index]!;
    turnTokens += entry.tokens;
    if (entry.group) turnGroupTokens += entry.tokens;
  }
  const untrimmedTokens = headTokens + historyTokens + turnTokens;
  const untrimmedHistory = historyTokens + turnGroupTokens;
  const available = budget - headTokens - unit;
  const historyOver = history.length > 0 && historyTokens > available;
  const trimmed = historyOver || untrimmedTokens > budget;

  if (shortcut && !trimmed) {
    // Nothing to cut: no step runs, so the result is the list as grouped, with the estimates already computed.
    const messages: Message[] = [];
    const messageTokens: number[] = [];
    for (let index = 0; index < head.length; index++) {
      messages.push(head[index]!.message);
      messageTokens.push(head[index]!.tokens);
    }
    history.appendFrom(0, messages, messageTokens);
    for (let index = 0; index < turn.length; index++) {
      messages.push(turn[index]!.message);
      messageTokens.push(turn[index]!.tokens);
    }
    return {
      messages,
      messageTokens,
      budget,
      unit,
      steps: [],
      removed: list.length - messages.length,
      droppedHistory: 0,
      droppedUnits: 0,
      trimmed,
      untrimmedHistory,
      untrimmedTokens,
      tokens: untrimmedTokens,
      overBudget: false,
      continuationInserted: false,
    };
  }

  const memoryTokenBudget = options.memoryTokenBudget ?? 4096;
  const inputs = new Set(inputIndices);
  const instructions = new Set(instructionIndices);
  let toolCallSummary: string | undefined;
  const isProtected = (entry: TrimEntry) =>
    inputs.has(entry.source) || (entry.source === 0 && list.at(0)?.role === 'system');
  const sum = (entries: readonly TrimEntry[]) => entries.reduce((total, entry) => total + entry.tokens, 0);

  // The last message of the list is never dropped; when it is history, the cut stops before its unit.
  const cutLimit = turn.length > 0 || history.length === 0 ? history.length : history.lastUnitStart();
  const cutAt = (multiple: number) => Math.min(cutLimit, history.cut(multiple * unit));

  const steps: TrimStep[] = [];
  let droppedUnits = 0;
  let cut = 0;
  if (historyOver) {
    droppedUnits = Math.ceil((historyTokens - available) / unit);
    cut = cutAt(droppedUnits);
    steps.push(1);
  }

  // Only the history from the cut on is materialised: what is sent.
  let kept = history.entriesFrom(cut);
  let total = headTokens + (historyTokens - history.tokensBefore(cut)) + turnTokens;
  const count = () => head.length + kept.length + turn.length;
  // The continuation prompt, built and estimated only once step 4 has run (it can be inserted only then).
  let prompt: { message: Message; tokens: number } | undefined;
  const continuation = () => {
    if (!prompt) {
      const content = textOf(options.continuationPrompt, DEFAULT_CONTINUATION_PROMPT);
      const message: Message = options.continuationMetadata
        ? { role: 'system', content, metadata: { ...options.continuationMetadata } }
        : { role: 'system', content };
      prompt = { message, tokens: estimator(message) };
    }
    return prompt;
  };
  let step4Ran = false;
  const promptPending = () => step4Ran && list.length - count() >= CONTINUATION_MIN_REMOVED;
  const over = () => total + (promptPending() ? continuation().tokens : 0) > budget;
  const replace = (entries: TrimEntry[], index: number, message: Message) => {
    const entry = entries[index]!;
    const tokens = estimator(message);
    total += tokens - entry.tokens;
    entries[index] = { ...entry, message, tokens };
  };
  const lastEntry = () => turn[turn.length - 1] ?? kept[kept.length - 1] ?? head[head.length - 1];
  const lastGroupUnit = findLast(turn, (entry) => entry.group)?.unit;
  const mayShorten = (entry: TrimEntry) => !isProtected(entry) && entry !== lastEntry();

  if (over()) {
    steps.push(2);
    runStep2();
  }
  if (over()) {
    steps.push(3);
    while (over() && cut < cutLimit) {
      // The next multiple of the unit that moves the cut (smaller ones end at the current cut).
      droppedUnits = Math.max(droppedUnits + 1, Math.floor(history.tokensBefore(cut) / unit) + 1);
      const next = cutAt(droppedUnits);
      if (next >= cut) {
        total -= history.tokensBefore(next) - history.tokensBefore(cut);
        kept.splice(0, next - cut);
      } else kept = history.entriesFrom(next); // a negative custom estimate can move it back
      cut = next;
    }
  }
  if (over()) {
    steps.push(4);
    step4Ran = true;
    runStep4();
  }
  if (over()) {
    steps.push(5);
    runStep5();
  }

  const outputEntries = [...head, ...kept, ...turn];
  const output = outputEntries.map((entry) => entry.message);
  const messageTokens = outputEntries.map((entry) => entry.tokens);
  const removed = list.length - output.length;
  const continuationInserted = promptPending();
  if (continuationInserted) {
    const { message, tokens } = continuation();
    const lastInput = findLastIndex(outputEntries, (entry) => inputs.has(entry.source));
    const at = lastInput === -1 ? output.length : lastInput + 1;
    output.splice(at, 0, message);
    messageTokens.splice(at, 0, tokens);
    total += tokens;
  }
  return {
    messages: output,
    messageTokens,
    budget,
    unit,
    steps,
    removed,
    droppedHistory: cut,
    droppedUnits: cut === 0 ? 0 : droppedUnits,
    trimmed,
    untrimmedHistory,
    untrimmedTokens,
    tokens: total,
    overBudget: total > budget,
    continuationInserted,
  };

  /** Step 2: this turn's earlier groups: long results, then reasoning (oldest first), then compaction. */
  function runStep2(): void {
    for (let index = 0; index < turn.length && over(); index++) {
      const entry = turn[index]!;
      if (!entry.group || entry.unit === lastGroupUnit || entry.message.role !== 'tool' || !mayShorten(entry)) continue;
      if (entry.message.content.length > LONG_RESULT_CHARS) {
        replace(turn, index, { ...entry.message, content: shortenText(entry.message.content, RESULT_KEEP_CHARS) });
      }
    }
    const reasoning = turn
      .map((entry, index) => ({ entry, index }))
      .filter(
        ({ entry }) =>
          entry.message.role === 'assistant' &&
          (entry.message.reasoningContent?.length ?? 0) > LONG_REASONING_CHARS &&
          !(entry.group && entry.unit === lastGroupUnit) &&
          mayShorten(entry),
      );
    for (const [position, { entry, index }] of reasoning.entries()) {
      if (!over()) return;
      const keep = position === reasoning.length - 1 ? NEWEST_REASONING_KEEP_CHARS : REASONING_KEEP_CHARS;
      const text = entry.message.reasoningContent ?? '';
      if (text.length > keep) replace(turn, index, { ...entry.message, reasoningContent: shortenText(text, keep) });
    }
    for (let index = 0; index < turn.length && over(); index++) {
      const entry = turn[index]!;
      if (!entry.group || entry.unit === lastGroupUnit || entry.message.role !== 'assistant') continue;
      let end = index + 1;
      while (end < turn.length && turn[end]!.unit === entry.unit) end++;
      const group = turn.slice(index, end);
      if (group.some((member) => !mayShorten(member))) continue;
      toolCallSummary ??= textOf(options.toolCallSummary, DEFAULT_TOOL_CALL_SUMMARY);
      const compacted = compactToolGroup(
        group.map((member) => member.message),
        toolCallSummary,
      );
      const tokens = estimator(compacted);
      const groupTokens = sum(group);
      if (tokens >= groupTokens) continue; // only when it really saves tokens
      turn.splice(index, end - index, {
        message: compacted,
        source: entry.source,
        unit: entry.unit,
        group: false,
        tokens,
      });
      total += tokens - groupTokens;
    }
  }

  /** Step 4: injected system messages between the first and the last message, over their quota. */
  function runStep4(): void {
    const first = head[0] ?? kept[0] ?? turn[0];
    const injected = () =>
      [head, turn].flatMap((entries) =>
        entries
          .map((entry, index) => ({ entries, entry, index }))
          .filter(
            ({ entry }) =>
              entry.message.role === 'system' &&
              entry !== first &&
              entry !== lastEntry() &&
              !isProtected(entry) &&
              !instructions.has(entry.source),
          ),
      );
    const injectedTokens = () => injected().reduce((tokens, { entry }) => tokens + entry.tokens, 0);
    const before = injectedTokens();
    if (before <= memoryTokenBudget) return;
    const ratio = memoryTokenBudget / before;
    for (const { entries, entry, index } of injected()) {
      const length = entry.message.content.length;
      const keep = Math.max(INJECTED_KEEP_CHARS, Math.floor(length * ratio));
      if (keep < length)
        replace(entries, index, { ...entry.message, content: shortenText(entry.message.content, keep) });
    }
    while (over() && injectedTokens() > memoryTokenBudget) {
      const [earliest] = injected();
      if (!earliest) break;
      earliest.entries.splice(earliest.index, 1);
      total -= earliest.entry.tokens;
    }
  }

  /** Step 5: the last tool-call group's long results (and a long last message), then its reasoning. */
  function runStep5(): void {
    const last = lastEntry();
    const targets = (entries: TrimEntry[]) =>
      entries
        .map((entry, index) => ({ entries, entry, index }))
        .filter(
          ({ entry }) =>
            !isProtected(entry) &&
            (entry === last || (entries === turn && entry.group && entry.unit === lastGroupUnit)),
        );
    const candidates = [...targets(turn), ...targets(kept)];
    for (const { entries, entry, index } of candidates) {
      if (!over()) return;
      const message = entry.message;
      if ((message.role === 'tool' || entry === last) && message.content.length > LONG_RESULT_CHARS) {
        replace(entries, index, { ...message, content: shortenText(message.content, RESULT_KEEP_CHARS) });
      }
    }
    for (const { entries, index } of candidates) {
      if (!over()) return;
      const message = entries[index]!.message;
      const reasoning = message.reasoningContent;
      if (reasoning !== undefined && reasoning.length > NEWEST_REASONING_KEEP_CHARS) {
        replace(entries, index, { ...message, reasoningContent: shortenText(reasoning, NEWEST_REASONING_KEEP_CHARS) });
      }
    }
  }
}

function textOf(text: string | (() => string) | undefined, fallback: string): string {
  return text === undefined ? fallback : typeof text === 'string' ? text : text();
}

function checkIndices(name: string, indices: readonly number[], length: number): void {
  for (let position = 0; position < indices.length; position++) {
    const index = indices[position]!;
    if (!Number.isInteger(index) || index < 0 || index >= length) {
      throw new RangeError(`trimMessages: ${name} index ${index} is outside the list (0…${length - 1}).`);
    }
  }
}

function findLast<T>(items: readonly T[], predicate: (item: T) => boolean): T | undefined {
  const index = findLastIndex(items, predicate);
  return index === -1 ? undefined : items[index];
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (predicate(items[index]!)) return index;
  return -1;
}
