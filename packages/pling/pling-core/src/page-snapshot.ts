// The page's part of the system prompt: the declared actions and the current state, as deterministic text. The
// runtime calls it every turn, so the model always sees the page as it is now, never a cached one.
import type { Locale } from '@plingjs/agent';
import type { ActionInfo } from './action-registry.js';
import { stableStringify } from './stable-stringify.js';
import { pageTexts } from './texts.js';

export interface SnapshotInput {
  title?: string;
  /** State values by name, already read from their getters (an Error for a getter that threw). */
  state: ReadonlyArray<readonly [name: string, value: unknown]>;
  actions: readonly ActionInfo[];
  /** Language of the headings and marks (default 'zh-CN'); values and descriptions are shown as given. */
  locale?: Locale;
}

export function formatSnapshot({ title, state, actions, locale }: SnapshotInput): string {
  const texts = pageTexts(locale).snapshot;
  const lines = [texts.heading(title), '', texts.state];
  if (state.length === 0) lines.push(texts.none);
  for (const [name, value] of state) {
    // A getter's error message may hold page data, so only the fact is reported.
    lines.push(`- ${name}: ${value instanceof Error ? texts.unavailable : stableStringify(value)}`);
  }
  lines.push('', texts.actions);
  if (actions.length === 0) lines.push(texts.none);
  for (const action of actions) {
    lines.push(`- ${action.id}${action.danger ? texts.danger : ''}: ${action.description}`);
  }
  return lines.join('\n');
}
