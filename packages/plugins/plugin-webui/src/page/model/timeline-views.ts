// Pure conversions from the session protocol's timeline (and waiting list) to the page's view entries.
import type {
  QueueEntries,
  TimelineCommand,
  TimelineEntry,
  TimelineInput,
  TimelineTurn,
  TurnItem,
  WaitingInput,
} from '@aalis/session-client';
import type {
  CommandEntryView,
  EntryView,
  InputView,
  PersonView,
  ToolCardView,
  TurnItemView,
  TurnView,
  WaitingInputView,
} from './conversation-types.js';

/** Pretty JSON when the arguments parse (or already are an object), else the raw text. */
export function argumentsText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? String(value);
}

export function personView(person: { platform?: string; userId?: string; displayName?: string }): PersonView {
  return { platform: person.platform, userId: person.userId, displayName: person.displayName };
}

export function inputView(input: TimelineInput): InputView {
  return {
    key: `input-${input.id}`,
    storageId: input.id,
    messageId: input.messageId,
    text: input.text,
    sender: personView(input.sender),
    source: input.source,
    at: input.at,
    entry: input.entry,
    attachments: input.attachments,
    pending: false,
  };
}

export function turnItemView(item: TurnItem): TurnItemView {
  switch (item.kind) {
    case 'text':
      return {
        kind: 'text',
        key: `text-${item.segment}`,
        ...(item.id.startsWith('live:') ? {} : { storageId: item.id }),
        segment: item.segment,
        text: item.text,
        reasoning: item.reasoning ?? '',
        unsent: item.unsent,
      };
    case 'tool':
      return toolCardView(item);
    case 'input':
      return { kind: 'input', key: `joined-${item.input.id}`, input: inputView(item.input) };
    case 'notice':
      return {
        kind: 'notice',
        key: `notice-${item.id}`,
        tone: item.tone,
        text: item.text,
        ...(item.texts ? { texts: item.texts } : {}),
      };
  }
}

function toolCardView(item: Extract<TurnItem, { kind: 'tool' }>): ToolCardView {
  return {
    kind: 'tool',
    key: `tool-${item.callId}`,
    callId: item.callId,
    name: item.name,
    argumentsText: argumentsText(item.arguments),
    result: item.result,
    durationMs: item.durationMs,
    state: item.state,
  };
}

export function entryView(entry: TimelineEntry): EntryView {
  switch (entry.kind) {
    case 'turn':
      return turnView(entry);
    case 'divider':
      return { kind: 'divider', key: `divider-${entry.id}`, summary: entry.summary };
    case 'released':
      return { kind: 'released', key: `released-${entry.input.id}`, input: inputView(entry.input) };
    case 'note':
      return {
        kind: 'note',
        key: `note-${entry.id}`,
        tone: entry.tone,
        text: entry.text,
        ...(entry.texts ? { texts: entry.texts } : {}),
        ...(entry.replyTo !== undefined ? { replyTo: entry.replyTo } : {}),
      };
    case 'command':
      return commandView(entry);
  }
}

export function commandView(entry: TimelineCommand): CommandEntryView {
  return {
    kind: 'command',
    key: `command-${entry.id}`,
    input: {
      key: `command-input-${entry.id}`,
      storageId: entry.id,
      messageId: entry.messageId,
      text: entry.text,
      sender: personView(entry.sender),
      at: entry.at,
      attachments: [],
      pending: false,
    },
    ...(entry.reply !== undefined ? { reply: entry.reply } : {}),
    ...(entry.replyAt !== undefined ? { replyAt: entry.replyAt } : {}),
  };
}

export function turnView(entry: TimelineTurn): TurnView {
  return {
    kind: 'turn',
    key: `turn-${entry.turnId}`,
    turnId: entry.turnId,
    inputs: entry.inputs.map(inputView),
    items: entry.items.map(turnItemView),
    outcome: entry.outcome,
    error: entry.error,
    errors: entry.errors,
    stoppedBy: entry.stoppedBy ? personView(entry.stoppedBy) : undefined,
    running: entry.running,
    ...(entry.superseded
      ? {
          superseded: {
            rollbackId: entry.superseded.rollbackId,
            action: entry.superseded.action,
            at: entry.superseded.at,
          },
        }
      : {}),
    versions: (entry.previousVersions ?? []).map((version) => version.map(turnView)),
  };
}

const WAITING_PREFIX = 'waiting-';

export function waitingView(input: WaitingInput): WaitingInputView {
  return {
    key: `${WAITING_PREFIX}${input.key}`,
    ...(input.messageId ? { messageId: input.messageId } : {}),
    text: input.text,
    sender: personView(input.sender),
    state: input.disposition,
  };
}

/** The waiting list as the page keeps it, for applying `queue` events (their keys are the inputs' own). */
export const WAITING_VIEWS: QueueEntries<WaitingInputView> = {
  key: (view) => view.key.slice(WAITING_PREFIX.length),
  entry: waitingView,
  withDisposition: (view, disposition) => ({ ...view, state: disposition }),
};
