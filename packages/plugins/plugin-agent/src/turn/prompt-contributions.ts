// Materialises agent:prompt contributions per anchor (plugin-agent.zh.md 「核心流程」 5.1): every build runs with
// its own time limit (promptBuildTimeoutMs); one that hangs, throws or returns nothing is absent this time.
import type { PromptAnchor, PromptCategory, PromptContributionView } from '@aalis/api-agent';
import type { ContributionsService } from '@aalis/api-contributions';
import type { Logger } from '@aalis/core';
import type { Message } from '@aalis/schema-message';
import { systemMessage } from './engine-messages.js';

export interface BuiltContributions {
  byAnchor: Record<PromptAnchor, Message[]>;
  categories: Map<string, PromptCategory>;
}

export async function buildContributions({
  contributions,
  view,
  timeoutMs,
  log,
}: {
  contributions: ContributionsService | undefined;
  view: PromptContributionView;
  timeoutMs: number;
  log: Logger;
}): Promise<BuiltContributions> {
  const byAnchor: Record<PromptAnchor, Message[]> = { head: [], 'turn-hint': [], 'turn-context': [] };
  const categories = new Map<string, PromptCategory>();
  if (!contributions) return { byAnchor, categories };
  const entries = contributions
    .collect('agent:prompt')
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => (a.entry.spec.order ?? 0) - (b.entry.spec.order ?? 0) || a.index - b.index);
  const built = await Promise.all(
    entries.map(async ({ entry }) => {
      try {
        const text = await withTimeout(Promise.resolve(entry.spec.build(view)), timeoutMs);
        if (text === TIMED_OUT) {
          log.warn('prompt contribution timed out; absent this call', { key: entry.key, timeoutMs });
          return undefined;
        }
        return typeof text === 'string' && text.trim() !== '' ? text : undefined;
      } catch (error) {
        log.warn('prompt contribution failed; absent this call', {
          key: entry.key,
          error: error instanceof Error ? error.message : String(error),
        });
        return undefined;
      }
    }),
  );
  entries.forEach(({ entry }, index) => {
    const text = built[index];
    if (text === undefined) return;
    byAnchor[entry.spec.anchor].push(systemMessage(text, entry.key));
    categories.set(entry.key, entry.spec.category ?? 'other');
  });
  return { byAnchor, categories };
}

const TIMED_OUT = Symbol('timed out');

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  if (ms <= 0) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
