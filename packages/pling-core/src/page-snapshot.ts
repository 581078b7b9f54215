// The page's part of the system prompt: the declared actions and the current state, as deterministic text. The
// runtime calls it every turn, so the model always sees the page as it is now, never a cached one.
import type { ActionInfo } from './action-registry.js';
import { stableStringify } from './stable-stringify.js';

export interface SnapshotInput {
  title?: string;
  /** State values by name, already read from their getters (an Error for a getter that threw). */
  state: ReadonlyArray<readonly [name: string, value: unknown]>;
  actions: readonly ActionInfo[];
}

export function formatSnapshot({ title, state, actions }: SnapshotInput): string {
  const lines = [`# Current page${title ? `: ${title}` : ''}`, '', '## State'];
  if (state.length === 0) lines.push('(none)');
  for (const [name, value] of state) {
    // A getter's error message may hold page data, so only the fact is reported.
    lines.push(`- ${name}: ${value instanceof Error ? '[unavailable]' : stableStringify(value)}`);
  }
  lines.push('', '## Actions');
  if (actions.length === 0) lines.push('(none)');
  for (const action of actions) {
    lines.push(`- ${action.id}${action.danger ? ' (danger)' : ''}: ${action.description}`);
  }
  return lines.join('\n');
}
