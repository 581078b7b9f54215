// One subtask as this process knows it, and the tree it belongs to (a top-level subtask and every subtask started
// inside it), which shares one token/cost budget.
import type { BackgroundStatus, BackgroundTask } from '@aalis/api-background';
import type { Identity, TurnOrigin } from '@aalis/schema-message';

export type SubtaskStatus = Extract<BackgroundStatus, 'running' | 'done' | 'failed' | 'stopped'>;

export interface SubtaskTree {
  /** The id of the top-level subtask. */
  id: string;
  /** subtaskMaxDepth of the session the tree started in: its limits hold for the whole tree. */
  maxDepth: number;
  /** subtaskMaxConcurrent of that session: a child session has no layer of its own for it either. */
  maxConcurrent: number;
  tokenBudget: number;
  costBudget: number;
  tokens: number;
  cost: number;
  currency?: string;
  /** Set once the tree went over budget: its text, reported to whoever waits. */
  overBudget?: string;
}

export interface SubtaskRecord {
  id: string;
  /** The session that spawned it (its 「后台」 tab lists it). */
  parentSessionId: string;
  childSessionId: string;
  tree: SubtaskTree;
  depth: number;
  task: string;
  background: boolean;
  status: SubtaskStatus;
  /** The child's final reply, or why there is none. */
  result?: string;
  error?: string;
  createdAt: number;
  endedAt?: number;
  tokens: number;
  cost: number;
  /** The turn that spawned it (a continuation carries it). */
  origin: TurnOrigin;
  /** The platform message id of that turn's latest input (the continuation quotes it). */
  messageId?: string;
  /** The parent's platform and venue (where the continuation is delivered). */
  platform: string;
  venue?: string;
  stoppedBy?: Identity;
  /** The turn whose wait_subtasks gave the model this subtask's final status and result. */
  reportedIn?: string;
  /**
   * That turn replied: the person has an answer made from the result, so a background subtask's host notice opens
   * no continuation turn (it would answer the same result again). A turn stopped or failed after the wait leaves it
   * unset: the continuation still reports.
   */
  reported?: boolean;
  /** Resolves when the subtask has ended (any final status). */
  settled: Promise<void>;
}

const SUMMARY_LENGTH = 200;

export function toBackgroundTask(record: SubtaskRecord): BackgroundTask {
  const task: BackgroundTask = {
    id: record.id,
    kind: 'subtask',
    sessionId: record.parentSessionId,
    title: record.task.length > SUMMARY_LENGTH ? `${record.task.slice(0, SUMMARY_LENGTH)}…` : record.task,
    status: record.status,
    createdAt: record.createdAt,
    tokens: record.tokens,
    stoppable: record.status === 'running',
    childSessionId: record.childSessionId,
  };
  if (record.cost > 0) task.cost = record.cost;
  if (record.tree.currency) task.currency = record.tree.currency;
  if (record.endedAt !== undefined) task.endedAt = record.endedAt;
  const summary = record.error ?? record.result;
  if (summary !== undefined)
    task.summary = summary.length > SUMMARY_LENGTH ? `${summary.slice(0, SUMMARY_LENGTH)}…` : summary;
  return task;
}
