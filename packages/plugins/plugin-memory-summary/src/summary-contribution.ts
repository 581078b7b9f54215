// The agent:prompt block carrying the session's latest summary: at the head, counted as memorySummary.
import type { PromptContributionSpec } from '@aalis/api-agent';
import type { SummaryStore } from './summary-store.js';

/** The block as the model sees it: the header line, then the summary. */
export function summaryBlock(header: string, summary: string): string {
  return `${header}\n${summary}`;
}

export function summaryContribution({
  store,
  header,
}: {
  store: SummaryStore;
  /** The block's first line, e.g. 「[对话摘要]」. */
  header: () => string;
}): PromptContributionSpec {
  return {
    id: 'summary',
    anchor: 'head',
    category: 'memorySummary',
    async build(view) {
      const summary = await store.latest(view.sessionId);
      return summary === undefined ? undefined : summaryBlock(header(), summary);
    },
  };
}
