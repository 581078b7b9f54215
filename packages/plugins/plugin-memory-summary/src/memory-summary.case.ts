// Shared set-up of the integration suites: the agent harness with this plugin, and a scheduler whose work the
// tests can wait for.

import { type Harness, type HarnessOptions, startHarness } from '@aalis/plugin-agent/testing';
import type { PluginEntry } from '@aalis/testing';
import { createMemorySummaryPlugin } from './index.js';

export interface SummaryHarness extends Harness {
  /** Waits for every scheduled turn-end check (and the compactions they started). */
  settle(): Promise<void>;
  /** Chat bodies' message contents, per request. */
  contents(index: number): string[];
}

export async function startSummaryHarness({
  summaryConfig = {},
  ...options
}: HarnessOptions & { summaryConfig?: Record<string, unknown> } = {}): Promise<SummaryHarness> {
  const pending: Promise<void>[] = [];
  const plugin = createMemorySummaryPlugin({
    schedule: (task) => {
      pending.push(task());
    },
  });
  const entry: PluginEntry = [plugin, summaryConfig];
  const harness = await startHarness({ ...options, extra: [...(options.extra ?? []), entry] });
  return Object.assign(harness, {
    async settle() {
      while (pending.length > 0) await pending.shift();
    },
    contents(index: number) {
      const request = harness.requests()[index];
      if (!request) throw new Error(`no request #${index}: ${harness.requests().length} were made`);
      return request.messages.map((message) => String(message.content ?? ''));
    },
  });
}

/** A non-streamed answer (summaries are requested with chat(), not chatStream()). */
export const summaryReply = (content: string) => ({ type: 'json' as const, content });
