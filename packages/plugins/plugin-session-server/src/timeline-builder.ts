// Rebuilds a session's timeline from its archive (api-agent.zh.md 「落库与外发的约定」): messages grouped into turns by
// TurnId, inputs placed by TurnEntry, each turn's outcome from its TurnRecord, stop markers hidden, tool cards from
// the stored groups with their callId, and in rooms the words that were never sent marked unsent (「未发出」).
import { translate } from '@aalis/core';
import { type Identity, WellKnownMetadataKeys as Keys, type Message, type TurnRecord } from '@aalis/schema-message';
import type {
  AttachmentRef,
  PersonRef,
  TimelineCommand,
  TimelineEntry,
  TimelineInput,
  TimelineText,
  TimelineTool,
  TimelineTurn,
  TurnSupersession,
} from '@aalis/session-client';
import { inputText } from './input-text.js';
import { noticeTexts } from './notice-texts.js';

export interface TimelineSources {
  /** The session is a room: only a turn's last reply was sent. */
  room: boolean;
  /** The text a person wrote, when this server still knows it (sent through it); else the prefix is stripped. */
  rawText?: (messageId: string) => string | undefined;
  /** The clientMessageId a message was sent with through this server. */
  clientIdOf?: (messageId: string) => string | undefined;
  /** The duration of a tool call this server saw run. */
  durationOf?: (callId: string) => number | undefined;
  /** The URL serving a stored attachment. */
  attachmentUrl: (messageId: string, index: number) => string;
}

export function buildTimelineEntries(messages: readonly Message[], sources: TimelineSources): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const turns = new Map<string, TimelineTurn>();
  // Tool cards waiting for their results, by the provider's tool-call id.
  const openTools = new Map<string, TimelineTool>();
  const segments = new Map<string, number>();
  // Command lines by their message id, for their answers.
  const commands = new Map<string, TimelineCommand>();
  // Notes answering an input not placed yet (a notice goes out before its held-back input is stored), and the
  // platform message ids of the inputs placed so far.
  const answers = new Map<string, { note: TimelineEntry; position: number }[]>();
  const placed = new Set<string>();
  const place = (messageId: string | undefined) => {
    if (messageId === undefined) return;
    placed.add(messageId);
    const waiting = answers.get(messageId);
    if (waiting) {
      answers.delete(messageId);
      entries.push(...waiting.map(({ note }) => note));
    }
  };

  let metadata: Record<string, unknown> = {};
  const turnFor = (turnId: string, at: number): TimelineTurn => {
    let turn = turns.get(turnId);
    if (!turn) {
      turn = { kind: 'turn', turnId, inputs: [], items: [], running: false, startedAt: at };
      const superseded = supersessionOf(metadata);
      if (superseded) turn.superseded = superseded;
      turns.set(turnId, turn);
      entries.push(turn);
    }
    return turn;
  };

  for (const message of messages) {
    metadata = message.metadata ?? {};
    const at = message.timestamp ?? 0;
    const turnId = typeof metadata[Keys.TurnId] === 'string' ? (metadata[Keys.TurnId] as string) : undefined;
    const record = metadata[Keys.TurnRecord] as TurnRecord | undefined;

    if (message.kind === 'turn-stopped') continue;
    if (message.kind === 'command') {
      const command = commandEntry(message, sources);
      entries.push(command);
      if (command.messageId !== undefined) commands.set(command.messageId, command);
      continue;
    }
    if (message.kind === 'command-reply') {
      const replyTo = metadata[Keys.ReplyTo];
      const command = typeof replyTo === 'string' ? commands.get(replyTo) : undefined;
      if (command) {
        command.reply = message.content;
        command.replyAt = at;
      }
      continue;
    }
    if (message.kind === 'compression-divider') {
      const summary = metadata[Keys.Summary];
      entries.push({
        kind: 'divider',
        id: message.id ?? `divider-${at}`,
        at,
        ...(typeof summary === 'string' ? { summary } : {}),
      });
      continue;
    }
    if (
      message.kind === 'delivery-failure' ||
      (message.role === 'system' && metadata[Keys.DeliveryFailure] !== undefined)
    ) {
      const id = message.id ?? `failure-${at}`;
      // The note in each language when its catalogue text was kept; an older row has only the host's text.
      const failure = metadata[Keys.DeliveryFailure] as { text?: unknown } | undefined;
      const texts = noticeTexts(failure?.text);
      const shown = { text: message.content, ...(texts ? { texts } : {}), at };
      if (turnId) {
        const turn = turnFor(turnId, at);
        // The reply that did not arrive is 「未发出」 too.
        for (const item of turn.items) if (item.kind === 'text' && item.final) item.unsent = true;
        turn.items.push({ kind: 'notice', id, tone: 'delivery-failure', ...shown });
      } else {
        entries.push({ kind: 'note', id, tone: 'delivery-failure', ...shown });
      }
      continue;
    }
    if (message.kind === 'event-marker') {
      if (turnId && record) applyRecord(turnFor(turnId, at), record);
      const notice = metadata[Keys.Notice] as { text?: unknown } | undefined;
      if (notice !== undefined) {
        // A notice sent outside a turn (budget, flow, attachments), in each language when its text is known.
        const texts = noticeTexts(notice.text);
        const id = message.id ?? `notice-${at}`;
        const replyTo = typeof metadata[Keys.ReplyTo] === 'string' ? (metadata[Keys.ReplyTo] as string) : undefined;
        const note: TimelineEntry = {
          kind: 'note',
          id,
          tone: 'info',
          text: message.content,
          ...(texts ? { texts } : {}),
          ...(replyTo !== undefined ? { replyTo } : {}),
          at,
        };
        if (replyTo !== undefined && !placed.has(replyTo)) {
          answers.set(replyTo, [...(answers.get(replyTo) ?? []), { note, position: entries.length }]);
        } else entries.push(note);
      }
      continue;
    }

    if (message.role === 'user') {
      const input = timelineInput(message, sources);
      if (!turnId) {
        entries.push({ kind: 'released', input });
        place(input.messageId);
        continue;
      }
      const turn = turnFor(turnId, at);
      if (input.entry === 'joined') turn.items.push({ kind: 'input', input });
      else turn.inputs.push(input);
      if (turn.inputs.length === 1 && input.source !== undefined) turn.source = input.source;
      place(input.messageId);
      continue;
    }

    if (message.role === 'assistant') {
      const turn = turnFor(turnId ?? message.id ?? `reply-${at}`, at);
      const segment = segments.get(turn.turnId) ?? 0;
      segments.set(turn.turnId, segment + 1);
      const final = record !== undefined;
      const visible = metadata[Keys.VisibleContent];
      const text = typeof visible === 'string' ? visible : message.content;
      if (text !== '' || message.reasoningContent) {
        const item: TimelineText = {
          kind: 'text',
          id: message.id ?? `text-${turn.turnId}-${segment}`,
          segment,
          text,
          unsent: sources.room && !final,
          final,
        };
        if (message.reasoningContent) item.reasoning = message.reasoningContent;
        if (typeof metadata[Keys.Model] === 'string') item.model = metadata[Keys.Model] as string;
        turn.items.push(item);
      }
      for (const call of message.toolCalls ?? []) {
        const tool: TimelineTool = {
          kind: 'tool',
          callId: call.id,
          segment,
          name: call.function.name,
          arguments: call.function.arguments,
          state: 'running',
        };
        openTools.set(call.id, tool);
        turn.items.push(tool);
      }
      if (record) applyRecord(turn, record);
      continue;
    }

    if (message.role === 'tool') {
      const tool = message.toolCallId ? openTools.get(message.toolCallId) : undefined;
      if (!tool) continue;
      openTools.delete(message.toolCallId!);
      const callId = metadata[Keys.CallId];
      if (typeof callId === 'string') tool.callId = callId;
      tool.result = message.content;
      tool.state = metadata[Keys.ToolError] === true ? 'error' : 'done';
      const duration = sources.durationOf?.(tool.callId);
      if (duration !== undefined) tool.durationMs = duration;
    }
    // Other system messages (summaries, contribution blocks) are not part of what a person sees.
  }
  // Notes whose input never came (it was not stored) stay where they were, the later ones first.
  const unplaced = [...answers.values()].flat().sort((a, b) => a.position - b.position);
  for (const { note, position } of unplaced.reverse()) entries.splice(position, 0, note);
  return entries;
}

function supersessionOf(metadata: Record<string, unknown>): TurnSupersession | undefined {
  const mark = metadata[Keys.Superseded] as { id?: unknown; at?: unknown; action?: unknown } | undefined;
  if (!mark || typeof mark.id !== 'string') return undefined;
  const action = mark.action === 'edit' || mark.action === 'retry' ? mark.action : 'regenerate';
  return { rollbackId: mark.id, at: typeof mark.at === 'number' ? mark.at : 0, action };
}

/**
 * The superseded turns of each rollback become one version of the live turn that follows them in the archive (its
 * `previousVersions`, oldest first) and leave the top level; superseded turns no live turn follows stay where they
 * are (the new input was refused, or its turn has not begun).
 */
export function attachVersions(entries: readonly TimelineEntry[]): TimelineEntry[] {
  const result: TimelineEntry[] = [];
  let pending: { entry: TimelineTurn; position: number }[] = [];
  for (const entry of entries) {
    if (entry.kind === 'turn' && entry.superseded) {
      pending.push({ entry, position: result.length });
      result.push(entry);
      continue;
    }
    if (entry.kind === 'turn' && pending.length > 0) {
      const versions: TimelineTurn[][] = [];
      for (const { entry: old } of pending) {
        const last = versions.at(-1);
        if (last && last[0]?.superseded?.rollbackId === old.superseded?.rollbackId) last.push(old);
        else versions.push([old]);
      }
      entry.previousVersions = versions;
      const taken = new Set<TimelineEntry>(pending.map(({ entry: old }) => old));
      for (let index = result.length - 1; index >= 0; index--) if (taken.has(result[index]!)) result.splice(index, 1);
      pending = [];
    }
    result.push(entry);
  }
  return result;
}

function commandEntry(message: Message, sources: Pick<TimelineSources, 'clientIdOf'>): TimelineCommand {
  const metadata = message.metadata ?? {};
  const text = (key: string) => (typeof metadata[key] === 'string' ? (metadata[key] as string) : undefined);
  const messageId = text(Keys.MessageId);
  const senderId = text(Keys.SenderId);
  const senderName = text(Keys.SenderName);
  const clientMessageId = messageId !== undefined ? sources.clientIdOf?.(messageId) : undefined;
  return {
    kind: 'command',
    id: message.id ?? `command-${message.timestamp ?? 0}`,
    ...(messageId !== undefined ? { messageId } : {}),
    ...(clientMessageId !== undefined ? { clientMessageId } : {}),
    text: message.content,
    sender: {
      platform: text(Keys.Platform) ?? '',
      ...(senderId !== undefined ? { userId: senderId } : {}),
      ...(senderName !== undefined ? { displayName: senderName } : {}),
    },
    at: message.timestamp ?? 0,
  };
}

function applyRecord(turn: TimelineTurn, record: TurnRecord): void {
  turn.outcome = record.outcome;
  if (record.error !== undefined) turn.error = record.error;
  if (record.errorText !== undefined) {
    turn.errors = { 'zh-CN': translate(record.errorText, 'zh-CN'), en: translate(record.errorText, 'en') };
  }
  if (record.stoppedBy) turn.stoppedBy = person(record.stoppedBy);
  if (record.origin?.source !== undefined) turn.source = record.origin.source;
}

function person(identity: Identity): PersonRef {
  return { platform: identity.platform, userId: identity.userId };
}

export function timelineInput(
  message: Message,
  sources: Pick<TimelineSources, 'rawText' | 'attachmentUrl' | 'clientIdOf'>,
): TimelineInput {
  const metadata = message.metadata ?? {};
  const text = (key: string) => (typeof metadata[key] === 'string' ? (metadata[key] as string) : undefined);
  const messageId = text(Keys.MessageId);
  const senderId = text(Keys.SenderId);
  const senderName = text(Keys.SenderName);
  const platform = text(Keys.Platform) ?? '';
  const entry = text(Keys.TurnEntry);
  const source = text(Keys.Source);
  const raw = messageId !== undefined ? sources.rawText?.(messageId) : undefined;
  const clientMessageId = messageId !== undefined ? sources.clientIdOf?.(messageId) : undefined;
  const attachments: AttachmentRef[] = (message.attachments ?? []).map((attachment, index) => ({
    type: attachment.type,
    ...(attachment.mimeType ? { mimeType: attachment.mimeType } : {}),
    ...(attachment.name ? { name: attachment.name } : {}),
    ...(attachment.description ? { description: attachment.description } : {}),
    url:
      attachment.url && /^https?:/i.test(attachment.url)
        ? attachment.url
        : sources.attachmentUrl(message.id ?? '', index),
  }));
  return {
    id: message.id ?? `input-${message.timestamp ?? 0}`,
    ...(messageId !== undefined ? { messageId } : {}),
    ...(clientMessageId !== undefined ? { clientMessageId } : {}),
    ...(entry === 'opened' || entry === 'joined' ? { entry } : {}),
    text: raw ?? inputText(message.content, { senderId, senderName }),
    sender: {
      platform,
      ...(senderId !== undefined ? { userId: senderId } : {}),
      ...(senderName !== undefined ? { displayName: senderName } : {}),
    },
    ...(source !== undefined ? { source } : {}),
    at: message.timestamp ?? 0,
    attachments,
  };
}
