// Shared test setup: the real agent harness with the subtask plugin, and helpers to route the scripted model
// server's replies to a child session by its task text.
import { type BackgroundTasksService, backgroundTasks } from '@aalis/api-background';
import { type SessionManagerService, sessionManager } from '@aalis/api-session-manager';
import { type SessionFieldsService, sessionFields } from '@aalis/api-session-settings';
import { type Harness, type HarnessOptions, startHarness } from '@aalis/plugin-agent/testing';
import type { ScriptedReply } from '@aalis/testing';
import subtaskPlugin from './index.js';

export interface SubtaskHarness extends Harness {
  background: BackgroundTasksService;
  sessions: SessionManagerService;
  fields: SessionFieldsService;
  /** Replies for the child session whose delegation block holds `task`. */
  child(task: string, ...replies: ScriptedReply[]): void;
}

export async function startSubtaskHarness(options: HarnessOptions = {}): Promise<SubtaskHarness> {
  const harness = await startHarness({ ...options, extra: [...(options.extra ?? []), subtaskPlugin] });
  const services = harness.booted.app.services;
  // A platform ensures its sessions; the harness talks to the agent directly, so the parent is made here.
  await services.selected(sessionManager)!.impl.ensure({ id: 'cli:owner', kind: 'cli', platform: 'cli' });
  return Object.assign(harness, {
    background: services.selected(backgroundTasks)!.impl,
    sessions: services.selected(sessionManager)!.impl,
    fields: services.selected(sessionFields)!.impl,
    child(task: string, ...replies: ScriptedReply[]) {
      harness.server.enqueueWhen((body) => isDelegationOf(body, task), ...replies);
    },
  });
}

export function isDelegationOf(body: Record<string, unknown>, task: string): boolean {
  const messages = (body.messages ?? []) as Array<{ role: string; content?: unknown }>;
  return messages.some(
    (message) =>
      message.role === 'system' &&
      typeof message.content === 'string' &&
      message.content.startsWith('[跨会话委派]') &&
      message.content.includes(task),
  );
}

/** A streamed reply that takes `ms` before its text (aborted calls close the connection sooner). */
export function slowReply(text: string, ms: number): ScriptedReply {
  return {
    type: 'stream',
    steps: [{ role: 'assistant' }, { delayMs: ms }, { text }, { finish: 'stop' }, { done: true }],
  };
}

export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
