// The session setting that selects tool groups, and the pure rules for reading it.
import type { ToolGroupSelection } from './tools-service.js';

/** The session-settings key of the tool group selection (type 'string[]'). */
export const ENABLED_TOOL_GROUPS_KEY = 'enabledToolGroups';

/** Group names: 1–64 characters of a-z, A-Z, 0-9, '_', '-', '.', ':'. */
export const TOOL_GROUP_PATTERN = /^[a-zA-Z0-9_.:-]{1,64}$/;

/**
 * A stored setting value as a selection: '*' or a list containing '*' → '*'; a list of group names → those
 * (deduplicated); anything else → undefined (not a valid selection).
 */
export function toGroupSelection(value: unknown): ToolGroupSelection | undefined {
  if (value === '*') return '*';
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return undefined;
  if (value.includes('*')) return '*';
  if (!value.every((item) => TOOL_GROUP_PATTERN.test(item))) return undefined;
  return [...new Set(value as string[])];
}

/** Whether a tool with `group` is offered under `selection` (ungrouped tools always are). */
export function isGroupEnabled(selection: ToolGroupSelection, group: string | undefined): boolean {
  if (group === undefined) return true;
  return selection === '*' || selection.includes(group);
}
