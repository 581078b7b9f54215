// Edit, regenerate and retry (docs/session-protocol.md 「Rolling back」): the named turn and every later turn of the
// active history leave what is sent to the model (memory.supersedeTurns: kept in the archive, marked superseded),
// then the edited text or the same inputs run as a new turn through the gateway, as `send` does.
import { randomBytes } from 'node:crypto';
import type { SessionInfo } from '@aalis/api-session-manager';
import { type Attachment, WellKnownMetadataKeys as Keys, type Message } from '@aalis/schema-message';
import type { Account, RollbackResult, TimelineInput } from '@aalis/session-client';
import { refreshTimeline } from './host-listeners.js';
import { deliverInput } from './input-delivery.js';
import type { Subscriber } from './live-session.js';
import { checkText } from './message-checks.js';
import { optionalString, requireString } from './params.js';
import type { ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';
import { accessibleSession } from './session-access.js';
import { timelineInput } from './timeline-builder.js';

export type RollbackAction = 'edit' | 'regenerate' | 'retry';

const turnOf = (message: Message): string | undefined => {
  const turnId = message.metadata?.[Keys.TurnId];
  return typeof turnId === 'string' ? turnId : undefined;
};
const isSuperseded = (message: Message) => message.metadata?.[Keys.Superseded] !== undefined;

interface RollbackPlan {
  /** The turn and every later turn of the active history, oldest first. */
  turnIds: string[];
  /** The named turn's inputs (opened and joined), in order. */
  inputs: { message: Message; view: TimelineInput }[];
  outcome: string | undefined;
}

/** What rolling back `turnId` would take out; throws the documented refusals. */
async function planRollback(deps: ServerDeps, session: SessionInfo, turnId: string): Promise<RollbackPlan> {
  const memory = deps.memory.use;
  const archive = await memory.readAll(session.id);
  const activeStart = await memory.activeStart(session.id);
  const first = archive.findIndex((message) => turnOf(message) === turnId && !isSuperseded(message));
  if (first < 0) throw serverErrors.AALIS_WEBUI_TURN_UNKNOWN({ turnId }, { details: { turnId } });
  if (first < activeStart) throw serverErrors.AALIS_WEBUI_TURN_COMPRESSED({}, { details: { turnId } });
  const turnIds: string[] = [];
  for (const message of archive.slice(first)) {
    const id = turnOf(message);
    if (id !== undefined && !isSuperseded(message) && !turnIds.includes(id)) turnIds.push(id);
  }
  const inputs: RollbackPlan['inputs'] = [];
  let outcome: string | undefined;
  for (const message of archive.slice(first)) {
    if (turnOf(message) !== turnId || isSuperseded(message)) continue;
    const record = message.metadata?.[Keys.TurnRecord] as { outcome?: string } | undefined;
    if (record?.outcome !== undefined) outcome = record.outcome;
    if (message.role !== 'user' || message.kind !== undefined) continue;
    inputs.push({
      message,
      view: timelineInput(message, { rawText: (id) => deps.rawTexts.get(id), attachmentUrl: () => '' }),
    });
  }
  return { turnIds, inputs, outcome };
}

/** The attachments of stored inputs as they can be sent again (bytes or a URL kept; the rest is gone). */
function resendable(messages: readonly Message[]): Attachment[] {
  return messages.flatMap((message) =>
    (message.attachments ?? []).filter((attachment) => attachment.data !== undefined || attachment.url !== undefined),
  );
}

export async function rollbackRequest(
  deps: ServerDeps,
  account: Account,
  params: Record<string, unknown>,
  action: RollbackAction,
): Promise<RollbackResult> {
  const type = `turn.${action}` as const;
  const session = await accessibleSession(deps, account, params.sessionId, type);
  if (session.kind === 'room') throw serverErrors.AALIS_WEBUI_ROOM_READ_ONLY({ platform: session.platform });
  const turnId = requireString(type, params, 'turnId', 256);
  const edited = action === 'edit' ? checkText(deps.config, params.text) : undefined;
  const clientMessageId = action === 'edit' ? optionalString(type, params, 'clientMessageId') : undefined;
  if (!deps.memory.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'memory' });
  if (deps.live(session.id).turn) throw serverErrors.AALIS_WEBUI_TURN_RUNNING();
  const plan = await planRollback(deps, session, turnId);
  if (action === 'retry' && plan.outcome !== 'error' && plan.outcome !== 'aborted') {
    throw serverErrors.AALIS_WEBUI_TURN_NOT_FAILED({}, { details: { turnId, outcome: plan.outcome ?? 'none' } });
  }
  const attachments = resendable(
    action === 'edit'
      ? plan.inputs.slice(0, 1).map(({ message }) => message)
      : plan.inputs.map(({ message }) => message),
  );
  const text = edited ?? plan.inputs.map(({ view }) => view.text).join('\n\n');
  if (text.trim() === '' && attachments.length === 0) throw serverErrors.AALIS_WEBUI_MESSAGE_EMPTY();
  // A turn that began while the archive was read: refuse rather than roll back under it.
  if (deps.live(session.id).turn) throw serverErrors.AALIS_WEBUI_TURN_RUNNING();
  const rollbackId = `rb-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  await deps.memory.use.supersedeTurns(session.id, plan.turnIds, { id: rollbackId, at: Date.now(), action });
  const started = turnStart(deps, session.id);
  const sent = await deliverInput(deps, account, session, {
    text,
    attachments,
    ...(clientMessageId ? { clientMessageId } : {}),
  });
  // The rollback's own timeline went out with memory:deleted (the replaced turns marked superseded); once the new
  // turn began, one more has it with its earlier versions (previousVersions), for every tab on the session.
  void started.promise.then((began) => {
    if (began) refreshTimeline(deps, session.id);
  });
  if (sent.routed !== 'turn') started.cancel();
  return { messageId: sent.messageId, rolledBack: plan.turnIds, rollbackId };
}

/** How long the rollback waits for its new turn to begin before it leaves the versions to the next timeline. */
const TURN_START_WAIT_MS = 5000;

/** Resolves true when the session's next turn begins (its turn.started event), false after the wait or cancel. */
function turnStart(deps: ServerDeps, sessionId: string): { promise: Promise<boolean>; cancel(): void } {
  const live = deps.live(sessionId);
  let finish: (began: boolean) => void = () => {};
  const watcher: Subscriber = {
    deliver: (_sessionId, _seq, event) => {
      if (event.type === 'turn.started') finish(true);
    },
  };
  const promise = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => finish(false), TURN_START_WAIT_MS);
    finish = (began) => {
      clearTimeout(timer);
      live.subscribers.delete(watcher);
      resolve(began);
    };
  });
  live.subscribers.add(watcher);
  return { promise, cancel: () => finish(false) };
}
