// The model-facing tools: spawn_subtask, wait_subtasks (stops waiting at once when its turn is aborted: 已中止),
// stop_subtask.
import { closedParameters, type Tool } from '@aalis/api-tools';
import { type I18n, translatorOf } from '@aalis/core';
import type { SubtaskManager } from './subtask-manager.js';
import type { SubtaskRecord } from './subtask-record.js';
import { subtaskErrors } from './subtask-texts.js';

export const SPAWN_SUBTASK_TOOL = 'spawn_subtask';
export const WAIT_SUBTASKS_TOOL = 'wait_subtasks';
export const STOP_SUBTASK_TOOL = 'stop_subtask';

const DEFAULT_WAIT_SECONDS = 300;

export function subtaskTools(manager: SubtaskManager, i18n: I18n): Tool[] {
  const t = translatorOf(i18n);
  const own = (id: string, sessionId: string): SubtaskRecord => {
    const record = manager.get(id);
    if (!record || record.parentSessionId !== sessionId) throw subtaskErrors.AALIS_SUBTASK_UNKNOWN({ id });
    return record;
  };
  return [
    {
      name: SPAWN_SUBTASK_TOOL,
      description: t('subtask.tool.spawn'),
      parameters: closedParameters(
        {
          task: { type: 'string', minLength: 1, description: t('subtask.tool.spawn.task') },
          model: { type: 'string', minLength: 1, description: t('subtask.tool.spawn.model') },
          persona: { type: 'string', minLength: 1, description: t('subtask.tool.spawn.persona') },
          toolGroups: { type: 'array', items: { type: 'string' }, description: t('subtask.tool.spawn.toolGroups') },
          background: { type: 'boolean', description: t('subtask.tool.spawn.background') },
        },
        ['task'],
      ),
      async handler(args, context) {
        const record = await manager.spawn(
          args as { task: string; model?: string; persona?: string; toolGroups?: string[]; background?: boolean },
          context,
        );
        return t(record.background ? 'subtask.spawned.background' : 'subtask.spawned', { id: record.id });
      },
    },
    {
      name: WAIT_SUBTASKS_TOOL,
      description: t('subtask.tool.wait'),
      parameters: closedParameters({
        ids: { type: 'array', items: { type: 'string' }, minItems: 1, description: t('subtask.tool.wait.ids') },
        timeoutSeconds: { type: 'number', minimum: 1, maximum: 3600, description: t('subtask.tool.wait.timeout') },
      }),
      async handler(args, context) {
        const { ids, timeoutSeconds } = args as { ids?: string[]; timeoutSeconds?: number };
        // Without ids: the subtasks this turn spawned, else every running one of this session.
        const records =
          ids && ids.length > 0
            ? ids.map((id) => own(id, context.sessionId))
            : defaultWaitSet(manager.list(context.sessionId), context.turnId);
        const aborted = await waitFor({
          settled: Promise.all(records.map((record) => record.settled)),
          signal: context.signal,
          ms: (timeoutSeconds ?? DEFAULT_WAIT_SECONDS) * 1000,
        });
        // 「wait_subtasks … 随它不再等、回已中止」: the subtasks keep running.
        if (aborted) return t('subtask.aborted');
        const results = records.map((record) => ({
          id: record.id,
          status: record.status,
          ...(record.result !== undefined ? { result: record.result } : {}),
          ...(record.error !== undefined ? { error: record.error } : {}),
          ...(record.status === 'stopped' && record.result === undefined ? { error: t('subtask.result.stopped') } : {}),
          tokens: record.tokens,
        }));
        for (const record of records) if (record.status !== 'running') record.reportedIn = context.turnId;
        const failed = records.some((record) => record.tree.overBudget !== undefined);
        return {
          content: JSON.stringify(results, null, 2),
          ...(failed ? { isError: true, code: 'AALIS_SUBTASK_OVER_BUDGET' } : {}),
        };
      },
    },
    {
      name: STOP_SUBTASK_TOOL,
      description: t('subtask.tool.stop'),
      parameters: closedParameters({ id: { type: 'string', minLength: 1, description: t('subtask.tool.stop.id') } }, [
        'id',
      ]),
      handler(args, context) {
        const record = own((args as { id: string }).id, context.sessionId);
        const by = context.participants[0];
        if (!manager.stop(record, { reason: STOP_SUBTASK_TOOL, ...(by ? { by } : {}) })) {
          return t('subtask.notRunning', { id: record.id, status: record.status });
        }
        return t('subtask.stopped', { id: record.id });
      },
    },
  ];
}

function defaultWaitSet(records: SubtaskRecord[], turnId: string): SubtaskRecord[] {
  const thisTurn = records.filter((record) => record.origin.turnId === turnId);
  return thisTurn.length > 0 ? thisTurn : records.filter((record) => record.status === 'running');
}

/** Resolves true when `signal` aborted first, false when `settled` resolved or the time ran out. */
function waitFor({ settled, signal, ms }: { settled: Promise<unknown>; signal: AbortSignal; ms: number }) {
  if (signal.aborted) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(done, ms, false);
    const onAbort = () => done(true);
    signal.addEventListener('abort', onAbort, { once: true });
    settled.then(() => done(false));
    function done(aborted: boolean) {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(aborted);
    }
  });
}
