// The subtask limits as session settings (layers global … session): depth, concurrency, the tree's budgets.
import type { AnySessionField } from '@aalis/api-session-settings';
import { textRef } from '@aalis/core';

export const SUBTASK_FIELD = {
  maxDepth: 'subtaskMaxDepth',
  maxConcurrent: 'subtaskMaxConcurrent',
  tokenBudget: 'subtaskTokenBudget',
  costBudget: 'subtaskCostBudget',
} as const;

export const SUBTASK_DEFAULTS = { maxDepth: 2, maxConcurrent: 4, tokenBudget: 500_000, costBudget: 0 } as const;

const positiveInteger = (value: number) =>
  Number.isInteger(value) && value >= 1 ? undefined : textRef('subtask.field.positiveInteger');
const nonNegative = (value: number) =>
  Number.isFinite(value) && value >= 0 ? undefined : textRef('subtask.field.nonNegative');

export function subtaskFields(): AnySessionField[] {
  return [
    {
      key: SUBTASK_FIELD.maxDepth,
      type: 'number',
      label: textRef('subtask.field.maxDepth'),
      description: textRef('subtask.field.maxDepth.description'),
      visibility: 'advanced',
      level: 'owner',
      default: SUBTASK_DEFAULTS.maxDepth,
      validate: positiveInteger,
    },
    {
      key: SUBTASK_FIELD.maxConcurrent,
      type: 'number',
      label: textRef('subtask.field.maxConcurrent'),
      description: textRef('subtask.field.maxConcurrent.description'),
      visibility: 'advanced',
      level: 'owner',
      default: SUBTASK_DEFAULTS.maxConcurrent,
      validate: positiveInteger,
    },
    {
      key: SUBTASK_FIELD.tokenBudget,
      type: 'number',
      label: textRef('subtask.field.tokenBudget'),
      description: textRef('subtask.field.tokenBudget.description'),
      visibility: 'advanced',
      level: 'owner',
      default: SUBTASK_DEFAULTS.tokenBudget,
      validate: nonNegative,
    },
    {
      key: SUBTASK_FIELD.costBudget,
      type: 'number',
      label: textRef('subtask.field.costBudget'),
      description: textRef('subtask.field.costBudget.description'),
      visibility: 'advanced',
      level: 'owner',
      default: SUBTASK_DEFAULTS.costBudget,
      validate: nonNegative,
    },
  ];
}
