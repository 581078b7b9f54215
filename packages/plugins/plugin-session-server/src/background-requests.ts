// The 「后台」 requests (docs/session-protocol.md): a session's background tasks merged from every backgroundTasks
// provider (subtasks, scheduled tasks), stopping one, and 「全部停止」.
import { type BackgroundTasksService, backgroundTasks } from '@aalis/api-background';
import type { Account, ResultOf } from '@aalis/session-client';
import { requireString } from './params.js';
import { identityOf, type ServerDeps } from './server-deps.js';
import { accessibleSession } from './session-access.js';

const ORDER = { running: 0, scheduled: 1 } as Record<string, number>;

function providers(deps: ServerDeps): BackgroundTasksService[] {
  return deps.services.providers(backgroundTasks).map((provider) => provider.impl);
}

export async function backgroundList(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const session = await accessibleSession(deps, account, params.sessionId, 'background.list');
  const lists = await Promise.all(providers(deps).map((provider) => provider.list(session.id)));
  const tasks = lists
    .flat()
    .sort((a, b) => (ORDER[a.status] ?? 2) - (ORDER[b.status] ?? 2) || b.createdAt - a.createdAt);
  return { tasks } satisfies ResultOf<'background.list'>;
}

export async function backgroundStop(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const session = await accessibleSession(deps, account, params.sessionId, 'background.stop');
  const taskId = requireString('background.stop', params, 'taskId');
  for (const provider of providers(deps)) {
    if (await provider.stop(session.id, taskId, identityOf(account))) {
      return { stopped: true } satisfies ResultOf<'background.stop'>;
    }
  }
  return { stopped: false } satisfies ResultOf<'background.stop'>;
}

export async function backgroundStopAll(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const session = await accessibleSession(deps, account, params.sessionId, 'background.stopAll');
  const counts = await Promise.all(
    providers(deps).map((provider) => provider.stopAll(session.id, identityOf(account))),
  );
  return { stopped: counts.reduce((sum, count) => sum + count, 0) } satisfies ResultOf<'background.stopAll'>;
}
