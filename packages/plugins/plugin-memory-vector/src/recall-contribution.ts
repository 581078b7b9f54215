// The agent:prompt block of long-term memory: at turn-context, after all history (the history's prefix stays
// cached; what changes each turn sits with the turn), counted as memoryVector. Searched with the words of this
// turn's inputs as archived, in the scope of this session and its speakers.
import type { PromptContributionSpec, PromptContributionView } from '@aalis/api-agent';
import { queryTerms } from '@aalis/util-text-search';
import type { Excerpt } from './recall.js';
import { splitSpoken } from './recall-entry.js';
import type { RecallScope } from './recall-store.js';

export interface TurnRecall {
  /** The turn's words (dense recall embeds them). */
  text: string;
  terms: string[];
  scope: RecallScope;
  exclude: Set<string>;
  signal: AbortSignal;
  /** The context window of the turn's model (the block is bounded to a share of it). */
  contextWindow: number;
}

/** The words this turn searches with: its inputs, as archived when they were. */
export function turnText(view: Pick<PromptContributionView, 'inputs'>): string {
  return view.inputs
    .map((input) => (input.archived ? splitSpoken(input.archived).text : input.message.content))
    .join('\n');
}

/** Ids the prompt already carries: the history window and this turn's archived inputs. */
export function carriedIds(view: Pick<PromptContributionView, 'inputs' | 'messages'>): Set<string> {
  const ids = new Set<string>();
  for (const message of view.messages) if (message.id !== undefined) ids.add(message.id);
  for (const input of view.inputs) if (input.archived?.id !== undefined) ids.add(input.archived.id);
  return ids;
}

/** What one turn's recall found, and how long it took (its share of the turn's time to first token). */
export interface RecallDone {
  sessionId: string;
  terms: string[];
  excerpts: Excerpt[];
  /** When it began, milliseconds since the epoch. */
  at: number;
  /** From the build's start to the rendered block, milliseconds. */
  ms: number;
  /** The process's CPU time (user and system) over the same interval, milliseconds. */
  cpuMs: number;
}

export function recallContribution({
  scopeOf,
  find,
  render,
  done,
}: {
  scopeOf(view: PromptContributionView): Promise<RecallScope>;
  find(request: TurnRecall): Promise<Excerpt[]>;
  render(excerpts: Excerpt[], sessionId: string): string | undefined;
  done?(recall: RecallDone): void;
}): PromptContributionSpec {
  return {
    id: 'recall',
    anchor: 'turn-context',
    category: 'memoryVector',
    async build(view) {
      if (view.dryRun || view.inputs.length === 0) return undefined;
      const text = turnText(view);
      if (text.trim() === '') return undefined;
      const at = Date.now();
      const started = performance.now();
      const cpu = process.cpuUsage();
      const terms = queryTerms(text);
      const excerpts = await find({
        text,
        terms,
        scope: await scopeOf(view),
        exclude: carriedIds(view),
        signal: view.signal,
        contextWindow: view.contextWindow,
      });
      const block = render(excerpts, view.sessionId);
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      done?.({ sessionId: view.sessionId, terms, excerpts, at, ms, cpuMs: (used.user + used.system) / 1000 });
      return block;
    },
  };
}
