// Hands one input of an account to the gateway and says where it went (docs/session-protocol.md 「Sending without
// loss」, 「Commands in the page」): into a turn (answered once the agent took it on), to a slash command (its answer
// kept with the command line as control records, so both survive a reload and never reach a model), or nowhere.
import { randomBytes } from 'node:crypto';
import type { InboundReport } from '@aalis/api-gateway';
import type { SessionInfo } from '@aalis/api-session-manager';
import { type Attachment, type IncomingMessage, WellKnownMetadataKeys as Keys } from '@aalis/schema-message';
import type { Account, ResultOf, SendRouting, TimelineCommand } from '@aalis/session-client';
import { limitErrors } from './limit-errors.js';
import { identityOf, type ServerDeps, WEBUI_PLATFORM } from './server-deps.js';
import { serverErrors } from './server-errors.js';

const SENT_ID_TTL_MS = 60 * 60 * 1000;

export interface InputToSend {
  text: string;
  attachments: Attachment[];
  clientMessageId?: string;
}

export async function deliverInput(
  deps: ServerDeps,
  account: Account,
  session: SessionInfo,
  input: InputToSend,
): Promise<ResultOf<'send'>> {
  const { text, attachments, clientMessageId } = input;
  const sentKey = clientMessageId ? `${account.userId}\u0000${clientMessageId}` : undefined;
  const earlier = sentKey ? deps.sentIds.get(sentKey) : undefined;
  if (earlier && Date.now() - earlier.at < SENT_ID_TTL_MS) {
    return { messageId: earlier.messageId, duplicate: true, routed: earlier.routed ?? 'turn' };
  }
  if (!deps.gateway.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'gateway' });
  // Each session holds at most maxWaitingInputs inputs waiting for its turn: a burst past it is refused, not kept.
  const live = deps.live(session.id);
  const waiting = live.waitingCount();
  if (waiting >= deps.config.maxWaitingInputs) {
    throw limitErrors.AALIS_WEBUI_QUEUE_FULL({ count: waiting, limit: deps.config.maxWaitingInputs });
  }
  const messageId = `webui-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
  const at = Date.now();
  const message: IncomingMessage = {
    sessionId: session.id,
    platform: WEBUI_PLATFORM,
    sender: { userId: account.userId, displayName: account.displayName },
    actor: identityOf(account),
    content: text,
    messageId,
    // Written to her in the WebUI: addressed, also in a room (no trigger judgement, as the spec's owner-from-WebUI).
    triggerType: 'direct',
    timestamp: at,
    // The page's language: a command's answer is written in it.
    locale: deps.locale,
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(session.venue !== undefined ? { venue: session.venue } : {}),
  };
  deps.rawTexts.set(messageId, text);
  if (clientMessageId) deps.clientIds.set(messageId, clientMessageId);
  if (sentKey) deps.sentIds.set(sentKey, { messageId, at });
  live.expectInput(messageId);
  // Answered once the agent took the input on (on a shared engine: stored in the database, so a confirmed input
  // outlives this process), or once the gateway is done with it (a command, a dropped input); the turn runs on. A
  // failing phase is logged by the gateway and never thrown.
  let reply: string | undefined;
  const routed = await new Promise<SendRouting | 'failed'>((resolve) => {
    const stopAccepted = deps.events.on('agent:accepted', ({ message: taken }) => {
      if (taken.messageId !== messageId) return;
      stopAccepted();
      resolve('turn');
    });
    // A command's answer goes out as a system message replying to the command (the gateway's command phase).
    const stopReplies = deps.events.on('outbound:message', (outgoing) => {
      if (outgoing.replyTo === messageId && outgoing.sessionId === session.id) reply = outgoing.content;
    });
    void deps.gateway.use
      .receive(message)
      .then(
        (report: InboundReport): SendRouting | 'failed' =>
          report.outcome === 'command'
            ? 'command'
            : report.outcome === 'dispatched'
              ? 'turn'
              : report.outcome === 'failed'
                ? 'failed'
                : 'dropped',
        (error: unknown): SendRouting => {
          deps.log.warn('the gateway refused a WebUI message', { sessionId: session.id, error: String(error) });
          return 'dropped';
        },
      )
      .then((outcome) => {
        stopAccepted();
        stopReplies();
        resolve(outcome);
      });
  });
  // Not waiting after all (a command, dropped, failed): it does not count towards the bound.
  if (routed !== 'turn') live.expectInput(messageId, true);
  if (routed === 'failed') {
    // Never acknowledged (the agent could not store it, or a phase before failed; the gateway logged why): the
    // sender is told, and a resend with the same clientMessageId is a new try (its entry is marked expired).
    if (sentKey) deps.sentIds.set(sentKey, { messageId, at: 0 });
    throw limitErrors.AALIS_WEBUI_NOT_STORED();
  }
  if (sentKey) deps.sentIds.set(sentKey, { messageId, at, routed });
  if (routed === 'command') {
    await recordCommand(deps, account, session, { messageId, text, at, reply, clientMessageId });
    return { messageId, duplicate: false, routed, reply: reply ?? '' };
  }
  return { messageId, duplicate: false, routed };
}

/**
 * Stores the command line and its answer as control records (kinds `command`, `command-reply`) and shows them to
 * every subscriber. A failing store is logged: the command ran either way.
 */
async function recordCommand(
  deps: ServerDeps,
  account: Account,
  session: SessionInfo,
  command: { messageId: string; text: string; at: number; reply: string | undefined; clientMessageId?: string },
): Promise<void> {
  if (!deps.memory.available) return;
  const replyAt = Date.now();
  try {
    const stored = await deps.memory.use.append(session.id, [
      {
        role: 'user',
        kind: 'command',
        content: command.text,
        timestamp: command.at,
        metadata: {
          [Keys.MessageId]: command.messageId,
          [Keys.Platform]: WEBUI_PLATFORM,
          [Keys.SenderId]: account.userId,
          [Keys.SenderName]: account.displayName,
          [Keys.Actor]: identityOf(account),
        },
      },
      ...(command.reply !== undefined && command.reply !== ''
        ? [
            {
              role: 'system' as const,
              kind: 'command-reply',
              content: command.reply,
              timestamp: replyAt,
              metadata: { [Keys.ReplyTo]: command.messageId },
            },
          ]
        : []),
    ]);
    const entry: TimelineCommand = {
      kind: 'command',
      id: stored[0]?.id ?? command.messageId,
      messageId: command.messageId,
      ...(command.clientMessageId ? { clientMessageId: command.clientMessageId } : {}),
      text: command.text,
      sender: { platform: WEBUI_PLATFORM, userId: account.userId, displayName: account.displayName },
      at: command.at,
      ...(command.reply ? { reply: command.reply, replyAt } : {}),
    };
    deps.live(session.id).emit({ type: 'command', entry });
  } catch (error) {
    deps.log.warn('could not store a command record', { sessionId: session.id, error: String(error) });
  }
}
