// BENCH_RECALL=keep in `npm run bench memory-recall`: a what-if, not the product. Each turn's recalled block stays
// with its turn (re-sent where it stood while the turn is in the history window, so a prompt cache keeps it) and a
// turn sends only the recalled lines no kept block in its window already holds (the delta). Replayed over the
// product's own blocks, question by question: how much of the evidence then reaches the prompt, and how many recalled
// tokens each request carries, kept blocks included, against the 2,000-token goal — unbounded, and with the delta
// cut so that kept blocks and delta stay within the budget (lines taken in the block's order, where the product would
// take them by rank: an approximation in the delta's favour only if early lines matter more).
import { estimateTextTokens } from '@aalis/context-budget';
import type { Asked } from '../src/conversation-replay.case.js';

/** One excerpt of a block: its label line (when and where) and its message lines. */
interface Excerpt {
  label: string;
  lines: string[];
}

/** A block's head (header and preamble) and excerpts, as recall-block.ts writes them. */
function parse(block: string): { head: string; excerpts: Excerpt[] } {
  if (block === '') return { head: '', excerpts: [] };
  const [header = '', preamble = '', , ...rest] = block.split('\n');
  const excerpts: Excerpt[] = [];
  for (const group of rest.join('\n').split('\n\n')) {
    const [label = '', ...lines] = group.split('\n');
    if (lines.length > 0) excerpts.push({ label, lines });
  }
  return { head: `${header}\n${preamble}\n`, excerpts };
}

function render(head: string, excerpts: readonly Excerpt[]): string {
  if (excerpts.length === 0) return '';
  return `${head}\n${excerpts.map((excerpt) => [excerpt.label, ...excerpt.lines].join('\n')).join('\n\n')}`;
}

export interface KeptFigures {
  evidence: number;
  /** Evidence in the prompt: history, today's block (as asked), and with kept blocks + delta. */
  today: number;
  kept: number;
  /** Recalled tokens per request, kept blocks included. */
  tokens: number[];
  /** The new recalled text per request (what no prompt cache holds). */
  newTokens: number[];
}

/**
 * One conversation's questions in order. `window` turns stay in the history (historyLimit / 2: a question and its
 * reply each); `budget` bounds kept blocks + delta (Infinity: unbounded).
 */
export function keptBlocks(asked: readonly Asked[], { window, budget }: { window: number; budget: number }) {
  const figures: KeptFigures = { evidence: 0, today: 0, kept: 0, tokens: [], newTokens: [] };
  const sent: Array<{ text: string; lines: Set<string>; tokens: number }> = [];
  for (const turn of asked) {
    const inWindow = sent.slice(-window);
    const keptLines = new Set(inWindow.flatMap((block) => [...block.lines]));
    let room = budget - inWindow.reduce((sum, block) => sum + block.tokens, 0);
    const { head, excerpts } = parse(turn.block);
    const delta: Excerpt[] = [];
    const headTokens = head === '' ? 0 : estimateTextTokens(head);
    if (room > headTokens) {
      room -= headTokens;
      for (const excerpt of excerpts) {
        const fresh = excerpt.lines.filter((line) => !keptLines.has(line));
        if (fresh.length === 0) continue;
        const taken: string[] = [];
        let cost = estimateTextTokens(excerpt.label) + 2;
        for (const line of fresh) {
          const lineCost = estimateTextTokens(line) + 1;
          if (cost + lineCost > room) break;
          cost += lineCost;
          taken.push(line);
        }
        if (taken.length === 0) continue;
        room -= cost;
        delta.push({ label: excerpt.label, lines: taken });
      }
    }
    const text = render(head, delta);
    const tokens = text === '' ? 0 : estimateTextTokens(text);
    figures.tokens.push(inWindow.reduce((sum, block) => sum + block.tokens, 0) + tokens);
    figures.newTokens.push(tokens);
    const inHistory = turn.evidence - turn.outsideHistory.length;
    figures.evidence += turn.evidence;
    figures.today += turn.inPrompt;
    figures.kept += inHistory;
    for (const probe of turn.outsideHistory)
      if (text.includes(probe) || inWindow.some((block) => block.text.includes(probe))) figures.kept += 1;
    sent.push({ text, lines: new Set(delta.flatMap((excerpt) => excerpt.lines)), tokens });
  }
  return figures;
}
