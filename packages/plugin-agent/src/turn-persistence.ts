// Saving and sending (plugin-agent.zh.md 「保存」, 「发送」): inputs archived with turn id and entry, agent messages
// through the archive, notices and replies dispatched with the turn id, and the end of a turn: stop marker, turn
// record, agent:turn:after, the session's lastTurn and the turn-end log line.
import { buildIncomingContent, speakerOfIncoming } from '@aalis/api-message-archive';
import { textRef } from '@aalis/core';
import {
  type IncomingMessage,
  type Message,
  type OutgoingKind,
  type OutgoingMessage,
  type TurnEntry,
  type TurnRecord,
  WellKnownMetadataKeys,
} from '@aalis/schema-message';
import type { AgentDeps } from './agent-deps.js';
import { stopMarkerText } from './turn-messages.js';
import type { TurnState } from './turn-state.js';

/**
 * Archives an input (except idle prompts) and returns the user message the model sees. Without an archive, builds
 * the same content itself (warning once per activation) and stores nothing.
 */
export async function archiveInput(
  deps: AgentDeps,
  state: Pick<TurnState, 'turnId' | 'facts' | 'sessionId'>,
  message: IncomingMessage,
  entry: TurnEntry,
  time: number,
): Promise<{ archived?: Message; model: Message }> {
  if (message.triggerType === 'idle') return { model: { role: 'user', content: message.content } };
  if (deps.messageArchive.available) {
    const archived = await deps.messageArchive.use.archiveIncoming(message, { turnId: state.turnId, entry, time });
    return { archived, model: { role: 'user', content: archived.content, attachments: archived.attachments } };
  }
  deps.warnArchiveAbsent();
  const isOwner = deps.authority.available
    ? (identity: Parameters<typeof deps.authority.use.isOwner>[0]) => deps.authority.use.isOwner(identity)
    : undefined;
  const speaker = speakerOfIncoming({
    message,
    session: { kind: state.facts.kind, multiParty: state.facts.multiParty, platform: message.platform },
    isOwner: isOwner ? (identity) => isOwner(identity) : undefined,
    locale: deps.i18n.locale,
  });
  const content = buildIncomingContent({
    message,
    speaker,
    time,
    timeZone: deps.config.timeZone,
    locale: deps.i18n.locale,
  });
  return { model: { role: 'user', content, attachments: message.attachments } };
}

/** Stores a message of the agent's (tool groups, replies, markers) when the archive is present. */
export async function saveAgentMessage(
  deps: AgentDeps,
  state: TurnState,
  message: Message,
): Promise<Message | undefined> {
  if (!deps.messageArchive.available) {
    deps.warnArchiveAbsent();
    return undefined;
  }
  const stored = await deps.messageArchive.use.saveMessage(state.sessionId, message);
  if (message.kind !== 'event-marker') state.leftInHistory = true;
  return stored;
}

/** Stores a tool-call group in one write (never half a group in history). */
export async function saveAgentMessages(deps: AgentDeps, state: TurnState, messages: Message[]): Promise<void> {
  if (!deps.messageArchive.available) {
    deps.warnArchiveAbsent();
    return;
  }
  await deps.messageArchive.use.saveMessages(state.sessionId, messages);
  state.leftInHistory = true;
}

/** Sends a reply or a notice of this turn through the gateway (or the outbound:message fallback). */
export async function dispatch(
  deps: AgentDeps,
  state: Pick<TurnState, 'sessionId' | 'turnId' | 'platform' | 'messages'>,
  { kind, content }: { kind: OutgoingKind; content: string },
): Promise<void> {
  const opener = state.messages[0]!;
  const outgoing: OutgoingMessage = {
    sessionId: state.sessionId,
    platform: state.platform,
    content,
    kind,
    turnId: state.turnId,
  };
  if (opener.venue !== undefined) outgoing.venue = opener.venue;
  if (opener.hostNotice) {
    outgoing.hostNotice = { kind: opener.hostNotice.kind, id: opener.hostNotice.id };
    if (opener.replyTo !== undefined) outgoing.replyTo = opener.replyTo;
  }
  if (deps.gateway.available) await deps.gateway.use.dispatchOutbound(outgoing);
  else deps.events.emit('outbound:message', outgoing);
}

export function turnRecordOf(deps: AgentDeps, state: TurnState): TurnRecord {
  const origin = deps.authority.available ? deps.authority.use.originTurnOf(state.messages) : undefined;
  const opener = state.messages[0]!;
  const record: TurnRecord = {
    outcome: state.outcome,
    origin: {
      platform: state.platform,
      arrivals: state.messages.flatMap((message) => (message.arrival === undefined ? [] : [message.arrival])),
      participants: origin?.participants ?? [],
    },
  };
  if (opener.source !== undefined) record.origin.source = opener.source;
  if (opener.triggerType !== undefined) record.origin.triggerType = opener.triggerType;
  if (opener.fromTurn?.turnId !== undefined) record.origin.fromTurn = opener.fromTurn.turnId;
  if (state.outcome === 'error' && state.error !== undefined) record.error = deps.i18n.t(state.error);
  if (state.outcome === 'aborted' && state.running.stoppedBy) record.stoppedBy = state.running.stoppedBy;
  return record;
}

/** Everything after the pipeline: markers and record, turn:after, lastTurn, the info line. Never throws. */
export async function finishTurn(deps: AgentDeps, state: TurnState): Promise<void> {
  try {
    const record = turnRecordOf(deps, state);
    if (state.outcome === 'aborted' && state.leftInHistory && state.facts) {
      const by = state.running.stoppedBy;
      await saveAgentMessage(deps, state, {
        role: 'system',
        kind: 'turn-stopped',
        content: stopMarkerText({
          i18n: deps.i18n,
          by,
          facts: state.facts,
          platform: state.platform,
          isOwner: by !== undefined && deps.authority.available && deps.authority.use.isOwner(by),
          ownerAccountOn: ownerAccountOn(deps),
        }),
        metadata: {
          [WellKnownMetadataKeys.TurnId]: state.turnId,
          ...(by ? { [WellKnownMetadataKeys.StoppedBy]: by } : {}),
        },
      });
    }
    // A turn that stored a reply carries its record on that reply; any other gets an event marker.
    if (!(state.outcome === 'replied' && state.storedReply) && deps.messageArchive.available) {
      await deps.messageArchive.use.saveMessage(state.sessionId, {
        role: 'system',
        kind: 'event-marker',
        content: '',
        metadata: { [WellKnownMetadataKeys.TurnId]: state.turnId, [WellKnownMetadataKeys.TurnRecord]: record },
      });
    }
  } catch (error) {
    deps.log.error('saving the end of the turn failed', { turnId: state.turnId, error: describe(error) });
  }
  try {
    const context = {
      inputs: state.inputs,
      reply: state.reply,
      outcome: state.outcome,
      sessionId: state.sessionId,
      turnId: state.turnId,
      ...(state.outcome === 'error' && state.error !== undefined ? { error: state.error } : {}),
    };
    await deps.hooks.use.run('agent:turn:after', context);
  } catch (error) {
    deps.log.error('agent:turn:after failed', { turnId: state.turnId, error: describe(error) });
  }
  // The session manager records SessionInfo.lastTurn from agent:turn:after itself.
  const reason = state.outcome === 'aborted' && state.running.stopReason ? state.running.stopReason : '';
  const arrivals = state.messages
    .map((message) => (message.arrival === undefined ? '' : `#${message.arrival}`))
    .join(' ');
  deps.log.info(
    `回合结束 turn=${state.turnId} session=${state.sessionId} 结局=${state.outcome} 原因=${reason} 用时=${Date.now() - state.startedAt}ms 输入 ${arrivals}`.trimEnd(),
  );
}

function ownerAccountOn(deps: AgentDeps): ((platform: string) => string | undefined) | undefined {
  if (!deps.authority.available) return undefined;
  const owners = deps.authority.use.owners();
  return (platform) => owners.find((owner) => owner.platform === platform)?.userId;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export { textRef };
