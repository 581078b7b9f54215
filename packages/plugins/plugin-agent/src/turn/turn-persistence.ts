// Saving and sending (plugin-agent.zh.md 「保存」, 「发送」): inputs archived with turn id and entry, agent messages
// through the archive, notices and replies dispatched with the turn id, and the end of a turn: stop marker, turn
// record, agent:turn:after, the session's lastTurn and the turn-end log line.
import { buildIncomingContent, speakerOfIncoming } from '@aalis/api-message-archive';
import { AalisError } from '@aalis/core';
import {
  type IncomingMessage,
  type Message,
  type NoticeText,
  type OutgoingKind,
  type OutgoingMessage,
  type TurnEntry,
  type TurnRecord,
  WellKnownMetadataKeys,
} from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import { markUnstored } from '../channel/unstored-inputs.js';
import { describe, turnEndLine } from '../log-format.js';
import { stopMarkerText } from './engine-messages.js';
import type { TurnOpening, TurnProgress, TurnWithFacts } from './turn-state.js';

/**
 * Archives an input (except idle prompts) and returns the user message the model sees. Without an archive, builds
 * the same content itself (warning once per activation) and stores nothing.
 */
export async function archiveInput(
  deps: AgentDeps,
  state: Pick<TurnWithFacts, 'turnId' | 'facts' | 'sessionId'>,
  progress: TurnProgress,
  message: IncomingMessage,
  entry: TurnEntry,
  time: number,
): Promise<{ archived?: Message; model: Message }> {
  if (message.triggerType === 'idle') return { model: { role: 'user', content: message.content } };
  if (deps.messageArchive.available) {
    let archived: Message;
    try {
      archived = await deps.messageArchive.use.archiveIncoming(message, { turnId: state.turnId, entry, time });
    } catch (error) {
      markUnstored(message);
      throw error;
    }
    progress.leftInHistory = true;
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

/**
 * Whether the session's deletion has begun since the turn's opening input reached the agent (the session
 * manager bumps the generation first thing): from then on the turn stores and sends nothing (「会话删除」).
 */
export function deletionBegun(
  deps: AgentDeps,
  state: Pick<TurnOpening, 'sessionId' | 'generation'> & { running?: { superseded?: boolean } },
): boolean {
  // Taken over by another process: nothing more is written either (session-owners.ts onLost).
  if (state.running?.superseded) return true;
  return deps.sessionManager.available && deps.sessionManager.use.generationOf(state.sessionId) !== state.generation;
}

/** Stores a message of the agent's (tool groups, replies, markers) when the archive is present. */
export async function saveAgentMessage(
  deps: AgentDeps,
  state: TurnOpening,
  progress: TurnProgress,
  message: Message,
): Promise<Message | undefined> {
  if (deletionBegun(deps, state)) return undefined;
  if (!deps.messageArchive.available) {
    deps.warnArchiveAbsent();
    return undefined;
  }
  const stored = await deps.messageArchive.use.saveMessage(state.sessionId, message);
  if (message.kind !== 'event-marker') progress.leftInHistory = true;
  return stored;
}

/** Stores a tool-call group in one write (never half a group in history). */
export async function saveAgentMessages(
  deps: AgentDeps,
  state: TurnOpening,
  progress: TurnProgress,
  messages: Message[],
): Promise<void> {
  if (deletionBegun(deps, state)) return;
  if (!deps.messageArchive.available) {
    deps.warnArchiveAbsent();
    return;
  }
  await deps.messageArchive.use.saveMessages(state.sessionId, messages);
  progress.leftInHistory = true;
}

/**
 * Sends a reply or a notice of this turn through the gateway (or the outbound:message fallback). Nothing leaves a
 * stopped turn or goes into a session whose deletion has begun. A delivery that throws does not fail the turn (the
 * reply stays stored, the outcome stays): it is logged with the turn id, and a reply's failure is reported as
 * `outbound:failed` like a platform's, which the message archive stores as the turn's `delivery-failure` record
 * (「平台适配器记回复的投递失败时带上它」) for the next model call and the session's timeline. Resolves whether it
 * went out.
 */
export async function sendTurnMessage(
  deps: AgentDeps,
  state: TurnOpening,
  { kind, content, text }: { kind: OutgoingKind; content: string; text?: NoticeText },
): Promise<boolean> {
  if (state.running.controller.signal.aborted || deletionBegun(deps, state)) return false;
  const opener = state.messages[0]!;
  const outgoing: OutgoingMessage = {
    sessionId: state.sessionId,
    platform: state.platform,
    content,
    kind,
    turnId: state.turnId,
  };
  // A notice's catalogue text: a reader in another language (the WebUI) is shown it in theirs.
  if (text !== undefined) outgoing.text = text;
  if (opener.venue !== undefined) outgoing.venue = opener.venue;
  if (opener.hostNotice) {
    outgoing.hostNotice = { kind: opener.hostNotice.kind, id: opener.hostNotice.id };
    if (opener.replyTo !== undefined) outgoing.replyTo = opener.replyTo;
  }
  try {
    if (deps.gateway.available) await deps.gateway.use.dispatchOutbound(outgoing);
    else deps.events.emit('outbound:message', outgoing);
    return true;
  } catch (error) {
    deps.log.error('delivering a message of the turn failed; the turn keeps its outcome', {
      sessionId: state.sessionId,
      turnId: state.turnId,
      platform: state.platform,
      kind,
      error: describe(error),
    });
    if (kind === 'reply') await recordDeliveryFailure(deps, state, outgoing, error);
    return false;
  }
}

/**
 * Reports the failed delivery as `outbound:failed` with the turn's message; the message archive records it in the
 * history (one record for every platform and for a send through the gateway that throws here).
 */
async function recordDeliveryFailure(
  deps: AgentDeps,
  state: TurnOpening,
  message: OutgoingMessage,
  error: unknown,
): Promise<void> {
  await deps.events.emitAsync('outbound:failed', {
    message,
    platform: state.platform,
    code: AalisError.isInstance(error) ? error.code : 'AALIS_AGENT_DELIVERY_THREW',
    reason: describe(error),
  });
}

export function turnRecordOf(deps: AgentDeps, state: TurnOpening, progress: TurnProgress): TurnRecord {
  const origin = deps.authority.available ? deps.authority.use.originTurnOf(state.messages) : undefined;
  const opener = state.messages[0]!;
  const record: TurnRecord = {
    outcome: progress.outcome,
    origin: {
      platform: state.platform,
      arrivals: state.messages.flatMap((message) => (message.arrival === undefined ? [] : [message.arrival])),
      participants: origin?.participants ?? [],
    },
  };
  if (opener.source !== undefined) record.origin.source = opener.source;
  if (opener.triggerType !== undefined) record.origin.triggerType = opener.triggerType;
  if (opener.fromTurn?.turnId !== undefined) record.origin.fromTurn = opener.fromTurn.turnId;
  if (progress.outcome === 'error' && progress.error !== undefined) {
    record.error = deps.i18n.t(progress.error);
    if (typeof progress.error !== 'string') record.errorText = progress.error;
  }
  if (progress.outcome === 'aborted' && state.running.stoppedBy) record.stoppedBy = state.running.stoppedBy;
  return record;
}

/**
 * Everything after the pipeline: markers and record, turn:after, lastTurn, the info line. Never throws. The facts are
 * absent when reading them failed (no stop marker then).
 */
export async function finishTurn(
  deps: AgentDeps,
  state: TurnOpening & { readonly facts: TurnWithFacts['facts'] | undefined },
  progress: TurnProgress,
): Promise<void> {
  // The outcome is decided (called synchronously after it was set): a stop from now on stops nothing.
  state.running.committed = true;
  try {
    await saveTurnEnd(deps, state, progress);
  } catch (error) {
    deps.log.error('saving the end of the turn failed', { turnId: state.turnId, error: describe(error) });
  }
  try {
    const context = {
      inputs: state.inputs,
      reply: progress.reply,
      outcome: progress.outcome,
      sessionId: state.sessionId,
      turnId: state.turnId,
      ...(progress.outcome === 'error' && progress.error !== undefined ? { error: progress.error } : {}),
    };
    await deps.hooks.use.run('agent:turn:after', context);
  } catch (error) {
    deps.log.error('agent:turn:after failed', { turnId: state.turnId, error: describe(error) });
  }
  // The session manager records SessionInfo.lastTurn from agent:turn:after itself.
  deps.log.info(
    turnEndLine({
      turnId: state.turnId,
      sessionId: state.sessionId,
      outcome: progress.outcome,
      // Only a stopped turn has a reason: the one given to abort/clearing, else how it was stopped.
      stopReason: progress.outcome === 'aborted' ? (state.running.stopReason ?? 'abort') : undefined,
      elapsedMs: Date.now() - state.startedAt,
      inputs: state.messages,
    }),
  );
}

/**
 * A write of the turn (its reply, a tool-call group, its end) through the agent's StorageRetry: held and written
 * again while the database cannot be used. Once one of the turn's held writes gave up, its later ones are tried once
 * (the turn does not wait twice). `landed` names the write's first message and what the write returns when that
 * message is found stored before a new try (a connection cut while its COMMIT was answered): never stored twice.
 */
export async function heldWrite<T>(
  deps: AgentDeps,
  state: Pick<TurnOpening, 'sessionId' | 'turnId'>,
  progress: TurnProgress,
  bytes: number,
  write: () => Promise<T>,
  landed?: { readonly message: Message; result(stored: Message): T },
): Promise<T> {
  if (progress.heldWriteGaveUp) return write();
  const check = landed
    ? async () => {
        const stored = await storedWrite(deps, state.sessionId, landed.message);
        return stored ? { result: landed.result(stored) } : undefined;
      }
    : undefined;
  try {
    return await deps.storageRetry.write({ sessionId: state.sessionId, turnId: state.turnId, bytes }, write, check);
  } catch (error) {
    if (HELD_WRITE_GAVE_UP.has(AalisError.isInstance(error) ? error.code : '')) progress.heldWriteGaveUp = true;
    throw error;
  }
}

/** How many of the session's latest conversation messages a retry looks through for its write (it was the latest). */
const LANDED_TAIL = 64;

/**
 * The stored copy of `written` (same turn, role, kind, content and tool calls) among the session's latest messages,
 * if an earlier try stored it. Read only when a held write is about to be tried again, never on the way of a turn.
 */
async function storedWrite(deps: AgentDeps, sessionId: string, written: Message): Promise<Message | undefined> {
  if (!deps.memory.available) return undefined;
  const memory = deps.memory.use;
  const count = await memory.countHistory(sessionId);
  const tail = await memory.read(sessionId, { from: Math.max(0, count - LANDED_TAIL), includeControl: true });
  const turnId = written.metadata?.[WellKnownMetadataKeys.TurnId];
  const calls = (message: Message) => (message.toolCalls ?? []).map((call) => call.id).join(' ');
  return tail.findLast(
    (stored) =>
      stored.role === written.role &&
      stored.kind === written.kind &&
      stored.content === written.content &&
      stored.metadata?.[WellKnownMetadataKeys.TurnId] === turnId &&
      calls(stored) === calls(written),
  );
}

const HELD_WRITE_GAVE_UP = new Set([
  'AALIS_AGENT_TURN_NOT_STORED',
  'AALIS_AGENT_TURN_NOT_HELD',
  'AALIS_AGENT_TURN_NOT_STORED_AT_STOP',
]);

/** The stop marker (a stopped turn that left something in history) and, without a stored reply, the event marker. */
async function saveTurnEnd(
  deps: AgentDeps,
  state: TurnOpening & { readonly facts: TurnWithFacts['facts'] | undefined },
  progress: TurnProgress,
): Promise<void> {
  // A session being deleted gets nothing more written: its history is about to go.
  if (deletionBegun(deps, state)) return;
  const record = turnRecordOf(deps, state, progress);
  if (progress.outcome === 'aborted' && progress.leftInHistory && state.facts) {
    const by = state.running.stoppedBy;
    const facts = state.facts;
    const marker: Message = {
      role: 'system',
      kind: 'turn-stopped',
      content: stopMarkerText({
        i18n: deps.i18n,
        by,
        facts,
        platform: state.platform,
        isOwner: by !== undefined && deps.authority.available && deps.authority.use.isOwner(by),
        ownerAccountOn: ownerAccountOn(deps),
      }),
      metadata: {
        [WellKnownMetadataKeys.TurnId]: state.turnId,
        ...(by ? { [WellKnownMetadataKeys.StoppedBy]: by } : {}),
      },
    };
    await heldWrite(deps, state, progress, MARKER_BYTES, () => saveAgentMessage(deps, state, progress, marker), {
      message: marker,
      result: (stored) => stored,
    });
  }
  // A turn that stored a reply carries its record on that reply; any other gets an event marker.
  if (progress.outcome === 'replied' && progress.storedReply) return;
  if (!deps.messageArchive.available) return;
  const archive = deps.messageArchive.use;
  const marker: Message = {
    role: 'system',
    kind: 'event-marker',
    content: '',
    metadata: { [WellKnownMetadataKeys.TurnId]: state.turnId, [WellKnownMetadataKeys.TurnRecord]: record },
  };
  // Written again while the database cannot be used; not once the session's deletion began meanwhile.
  await heldWrite(
    deps,
    state,
    progress,
    MARKER_BYTES,
    async () => {
      if (deletionBegun(deps, state)) return;
      await archive.saveMessage(state.sessionId, marker);
    },
    { message: marker, result: () => undefined },
  );
}

/** What a held marker or record is counted as (its record and a short text; never near a reply's size). */
const MARKER_BYTES = 4096;

function ownerAccountOn(deps: AgentDeps): ((platform: string) => string | undefined) | undefined {
  if (!deps.authority.available) return undefined;
  const owners = deps.authority.use.owners();
  return (platform) => owners.find((owner) => owner.platform === platform)?.userId;
}
