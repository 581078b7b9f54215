// The session requests of the protocol: list, create, subscribe/unsubscribe, send, stop, clear, compact, delete,
// read (docs/session-protocol.md 「Requests」).
import { randomBytes } from 'node:crypto';
import type { EventMap } from '@aalis/core';
import type { Account, ParamsOf, ResultOf } from '@aalis/session-client';
import { deliverInput } from './input-delivery.js';
import { limitErrors } from './limit-errors.js';
import type { Subscriber } from './live-session.js';
import { checkAttachments, checkText } from './message-checks.js';
import { badParam, optionalString, requireString } from './params.js';
import type { Handler } from './request-handler.js';
import { identityOf, type Peer, type ServerDeps, WEBUI_PLATFORM } from './server-deps.js';
import { serverErrors } from './server-errors.js';
import { accessibleSession, listSessions, ownSessionPrefix, summaryFor } from './session-access.js';
import { storageFailure } from './storage-failure.js';
import { prepareTimeline } from './timeline-snapshot.js';

export async function listRequest(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const search = optionalString('sessions.list', params, 'search');
  const archived = params.archived === true;
  return { sessions: await listSessions(deps, account, search, archived) } satisfies ResultOf<'sessions.list'>;
}

export async function createRequest(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const title = optionalString('session.create', params, 'title');
  if (!deps.sessionManager.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'sessionManager' });
  const session = await deps.sessionManager.use.ensure({
    id: `${ownSessionPrefix(account)}${Date.now().toString(36)}${randomBytes(4).toString('hex')}`,
    kind: 'web',
    platform: WEBUI_PLATFORM,
    originChat: { multiParty: false },
    ...(title ? { title: title.slice(0, 200) } : {}),
  });
  return { session: await summaryFor(deps, account, session) } satisfies ResultOf<'session.create'>;
}

/** Sends the timeline (or replays the missed events), then activates the subscription; then asks for usage. */
export async function subscribeRequest(
  deps: ServerDeps,
  peer: Peer | undefined,
  account: Account,
  params: Record<string, unknown>,
): Promise<ResultOf<'subscribe'>> {
  if (!peer) badParam('subscribe', 'transport', 'socket', 'HTTP');
  const session = await accessibleSession(deps, account, params.sessionId, 'subscribe');
  const resume = params.resume as ParamsOf<'subscribe'>['resume'] | undefined;
  const live = deps.live(session.id);
  const subscriber = subscriberOf(peer);
  live.subscribers.delete(subscriber);
  peer.subscriptions.add(session.id);
  let resumed = false;
  const replay =
    resume && resume.serverId === deps.serverId && Number.isSafeInteger(resume.seq)
      ? live.since(resume.seq)
      : undefined;
  if (replay) {
    for (const entry of replay) peer.send({ type: 'event', sessionId: session.id, seq: entry.seq, event: entry.event });
    resumed = true;
  } else {
    const complete = await prepareTimeline(deps, session.id);
    if (!peer.subscriptions.has(session.id)) return { sessionId: session.id, seq: live.seq, resumed: false };
    const { timeline, seq } = complete();
    peer.send({ type: 'timeline', sessionId: session.id, seq, timeline });
  }
  live.subscribers.add(subscriber);
  deps.logins.markRead(account.userId, session.id);
  // The usage entry of the subscribe (plugin-agent.zh.md: token:request; rooms give no platform).
  deps.events.emit('token:request', {
    sessionId: session.id,
    ...(session.kind === 'room' ? {} : { platform: session.platform }),
  });
  return { sessionId: session.id, seq: live.seq, resumed };
}

const subscribers = new WeakMap<Peer, Subscriber>();

/** The one subscriber object of a peer (so a re-subscribe replaces it). */
export function subscriberOf(peer: Peer) {
  let subscriber = subscribers.get(peer);
  if (!subscriber) {
    subscriber = {
      deliver: (sessionId, _seq, _event, frame) => {
        if (peer.subscriptions.has(sessionId)) peer.sendText(frame());
      },
    };
    subscribers.set(peer, subscriber);
  }
  return subscriber;
}

export function unsubscribeRequest(deps: ServerDeps, peer: Peer | undefined, params: Record<string, unknown>) {
  const sessionId = requireString('unsubscribe', params, 'sessionId');
  if (peer) {
    peer.subscriptions.delete(sessionId);
    deps.live(sessionId).subscribers.delete(subscriberOf(peer));
  }
  return {} satisfies ResultOf<'unsubscribe'>;
}

export const sendRequest: Handler<'send'> = async (deps, account, params) => {
  try {
    return await sendChecked(deps, account, params);
  } catch (error) {
    // Whatever step found the database unusable (reading the session, storing the input), the input was not
    // stored: the one answer a sender acts on (send it again later), with the cause in the log.
    const reason = storageFailure(error);
    if (reason === undefined) throw error;
    deps.log.warn('an input was not stored: the database cannot be used', { reason });
    throw limitErrors.AALIS_WEBUI_NOT_STORED();
  }
};

async function sendChecked(
  deps: ServerDeps,
  account: Account,
  params: Record<string, unknown>,
): Promise<ResultOf<'send'>> {
  const session = await accessibleSession(deps, account, params.sessionId, 'send');
  // An IM room's conversation happens in the room; its history is read-only here.
  if (session.kind === 'room') throw serverErrors.AALIS_WEBUI_ROOM_READ_ONLY({ platform: session.platform });
  const clientMessageId = optionalString('send', params, 'clientMessageId');
  const text = checkText(deps.config, params.text);
  const attachments = checkAttachments(deps.config, params.attachments, deps.locale);
  if (text.trim() === '' && attachments.length === 0) throw serverErrors.AALIS_WEBUI_MESSAGE_EMPTY();
  return deliverInput(deps, account, session, { text, attachments, ...(clientMessageId ? { clientMessageId } : {}) });
}

/** How long a stop of a turn on another process waits for that turn's end to answer `stopped`. */
const REMOTE_STOP_WAIT_MS = 3000;

export async function stopRequest(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const session = await accessibleSession(deps, account, params.sessionId, 'stop');
  if (!deps.agent.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'agent' });
  // As /stop: the turn's participants and owners may stop it (plugin-agent.zh.md 「指令」 /stop, 同停止键).
  const turn = deps.live(session.id).turn;
  if (!account.owner && turn && !turn.participants.has(`${WEBUI_PLATFORM}:${account.userId}`)) {
    throw serverErrors.AALIS_WEBUI_FORBIDDEN({ reason: deps.translate({ key: 'sessionServer.forbidden.stop' }) });
  }
  let stopped = deps.agent.use.abort(session.id, { by: identityOf(account), reason: 'webui stop' });
  if (!stopped && turn?.origin !== undefined) {
    // The turn runs on another process: the agent sent the stop there; its end, relayed, says how it went.
    stopped = (await deps.live(session.id).ended(turn.turnId, REMOTE_STOP_WAIT_MS)) === 'aborted';
  }
  return { stopped } satisfies ResultOf<'stop'>;
}

/** /clear and /compact run as commands of this account, so their levels and replies are the commands'. */
export async function commandRequest(
  deps: ServerDeps,
  account: Account,
  params: Record<string, unknown>,
  command: 'clear' | 'compact',
): Promise<{ reply: string }> {
  const session = await accessibleSession(deps, account, params.sessionId, command);
  if (!deps.commands.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'commands' });
  // The commands service answers a refusal as reply text; its commands:executed event says it was one.
  let outcome: EventMap['commands:executed']['outcome'] | undefined;
  const stopListening = deps.events.on('commands:executed', (executed) => {
    if (executed.sessionId === session.id && executed.name === command) outcome = executed.outcome;
  });
  let result: Awaited<ReturnType<typeof deps.commands.use.execute>>;
  try {
    result = await deps.commands.use.execute({
      sessionId: session.id,
      platform: WEBUI_PLATFORM,
      sender: { userId: account.userId, displayName: account.displayName },
      actor: identityOf(account),
      content: `/${command}`,
      timestamp: Date.now(),
      ...(session.venue !== undefined ? { venue: session.venue } : {}),
    });
  } finally {
    stopListening();
  }
  if (!result.handled) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: `/${command}` });
  if (outcome === 'forbidden') {
    // The reply is the command's own AALIS_COMMAND_FORBIDDEN text ("… (AALIS_COMMAND_FORBIDDEN)"): the reason.
    const reason = (result.reply ?? `/${command}`).replace(/\s*\(AALIS_[A-Z_]+\)$/u, '').replace(/[。.]$/u, '');
    throw serverErrors.AALIS_WEBUI_FORBIDDEN({ reason }, { details: { command: `/${command}` } });
  }
  if (command === 'compact') {
    deps.events.emit('token:request', {
      sessionId: session.id,
      ...(session.kind === 'room' ? {} : { platform: session.platform }),
    });
  }
  return { reply: result.reply ?? '' };
}

export async function deleteRequest(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const session = await accessibleSession(deps, account, params.sessionId, 'delete');
  const report = await deps.sessionManager.use.deleteSession(session.id, {
    reason: `webui delete by ${account.userId}`,
  });
  return { deleted: report.deleted } satisfies ResultOf<'delete'>;
}

export async function readRequest(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const session = await accessibleSession(deps, account, params.sessionId, 'read');
  deps.logins.markRead(account.userId, session.id);
  return {} satisfies ResultOf<'read'>;
}
