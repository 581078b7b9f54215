// The conversation of one session as state, framework-free: the timeline rebuilt from the archive, then the live
// session events (streamed text and reasoning per model call, tool cards matched by callId, joined inputs, the
// queue, outcomes, 未发出 segments), plus the page's own sends shown as pending until the server places them.
// Entries are immutable: an event replaces only the turn it touches, so a snapshot is cheap and Vue's keyed diff
// re-renders one turn per streamed delta.
import {
  applyQueueChange,
  type ResultOf,
  type SessionEvent,
  type Timeline,
  type TimelineCommand,
  type TimelineInput,
} from '@aalis/session-client';
import type {
  CommandEntryView,
  ConversationSnapshot,
  EntryView,
  InputView,
  LocaleTexts,
  ToolCardView,
  TurnItemView,
  TurnView,
  WaitingInputView,
} from './conversation-types.js';
import { Store } from './store.js';
import {
  argumentsText,
  commandView,
  entryView,
  inputView,
  personView,
  WAITING_VIEWS,
  waitingView,
} from './timeline-views.js';

interface PendingSend {
  /** The page's key for the send; the server's messageId once `send` answered. */
  key: string;
  messageId?: string;
  clientMessageId?: string;
  input: InputView;
}

export class ConversationModel extends Store<ConversationSnapshot> {
  private entries: EntryView[] = [];
  private runningTurnId: string | undefined;
  private waiting: WaitingInputView[] = [];
  private pending: PendingSend[] = [];
  private loaded = false;
  private truncated = false;
  private deleted = false;
  private editing: ConversationSnapshot['editing'];

  constructor(readonly sessionId: string) {
    super();
  }

  /** Shows a message this page is sending until the server reports where it went. */
  sending(key: string, input: Pick<InputView, 'text' | 'attachments' | 'sender'>, clientMessageId?: string): void {
    this.pending.push({
      key,
      clientMessageId,
      input: { key: `pending-${key}`, ...input, at: Date.now(), pending: true },
    });
    this.changed();
  }

  /**
   * `send` answered with the message id the input will carry in the timeline and events, and where it went: a
   * command settles at once with its answer (the stored `command` event replaces it when it comes); an input the
   * gateway dropped stays as a message that entered no turn.
   */
  sendAccepted(key: string, messageId: string | undefined, routing?: Pick<ResultOf<'send'>, 'routed' | 'reply'>): void {
    const entry = this.pending.find((candidate) => candidate.key === key);
    if (!entry) return;
    if (routing?.routed === 'command' || routing?.routed === 'dropped') {
      this.pending = this.pending.filter((e) => e !== entry);
      const input: InputView = { ...entry.input, messageId, pending: false };
      if (routing.routed === 'dropped')
        this.entries = [...this.entries, { kind: 'released', key: `released-local-${key}`, input }];
      else if (!this.entries.some((known) => known.kind === 'command' && sameCommand(known, messageId, entry.input)))
        this.entries = [
          ...this.entries,
          {
            kind: 'command',
            key: `command-local-${key}`,
            input: { ...input, key: `command-input-local-${key}` },
            ...(routing.reply ? { reply: routing.reply, replyAt: Date.now() } : {}),
          },
        ];
      if (routing.routed === 'command') this.entries = withoutEchoes(this.entries, messageId, routing.reply);
      this.changed();
      return;
    }
    if (messageId === undefined || this.isPlaced(messageId)) this.pending = this.pending.filter((e) => e !== entry);
    else entry.messageId = messageId;
    this.changed();
  }

  /** A send the server refused: its pending bubble goes (the composer keeps the text, so nothing is lost). */
  sendFailed(key: string): void {
    this.pending = this.pending.filter((entry) => entry.key !== key);
    this.changed();
  }

  /** Opens the inline editor on a turn's message, with the text of its inputs. */
  startEdit(turnId: string): void {
    const turn = this.entries.find((entry): entry is TurnView => entry.kind === 'turn' && entry.turnId === turnId);
    if (!turn) return;
    this.editing = { turnId, text: turn.inputs.map((input) => input.text).join('\n\n') };
    this.changed();
  }

  editText(text: string): void {
    if (!this.editing) return;
    this.editing = { ...this.editing, text };
    this.changed();
  }

  cancelEdit(): void {
    if (!this.editing) return;
    this.editing = undefined;
    this.changed();
  }

  /** The history as the server rebuilt it (on subscribe and after a resume that could not replay). */
  load(timeline: Timeline): void {
    this.entries = timeline.entries.map(entryView);
    const running = this.entries.find((entry): entry is TurnView => entry.kind === 'turn' && entry.running);
    this.runningTurnId = running?.turnId;
    this.waiting = timeline.waiting.map(waitingView);
    this.truncated = timeline.truncated;
    // An edit open on a turn that is no longer live (another tab rolled it back) has nothing left to edit.
    const editing = this.editing;
    if (
      editing &&
      !this.entries.some((entry) => entry.kind === 'turn' && entry.turnId === editing.turnId && !entry.superseded)
    )
      this.editing = undefined;
    this.dropPlaced();
    this.loaded = true;
    this.changed();
  }

  apply(event: SessionEvent): void {
    switch (event.type) {
      case 'turn.started':
        this.runningTurnId = event.turnId;
        this.updateTurn(event.turnId, (turn) => ({ ...turn, running: true }));
        break;
      case 'input':
        this.input(event.turnId, event.input);
        break;
      case 'text.delta':
      case 'reasoning.delta':
        this.updateTurn(event.turnId, (turn) => {
          const { items, item } = textItem(turn, event.segment);
          const next =
            event.type === 'text.delta'
              ? { ...item, text: item.text + event.delta }
              : { ...item, reasoning: item.reasoning + event.delta };
          return { ...turn, items: replaceItem(items, item, next) };
        });
        break;
      case 'tool.progress':
        this.updateTool(event.turnId, event.callId, event.name, (card) => ({
          ...card,
          argumentsText: card.argumentsText + (event.argumentsDelta ?? ''),
        }));
        break;
      case 'tool.started':
        this.updateTool(event.turnId, event.callId, event.name, (card) => ({
          ...card,
          state: 'running',
          argumentsText: argumentsText(event.arguments === '' ? card.argumentsText : event.arguments),
        }));
        break;
      case 'tool.ended':
        this.updateTool(event.turnId, event.callId, event.name, (card) => ({
          ...card,
          state: event.isError ? 'error' : 'done',
          result: event.result,
          durationMs: Math.round(event.durationMs),
        }));
        break;
      case 'message':
        this.message(event);
        break;
      case 'queue':
        this.waiting = applyQueueChange(this.waiting, event, WAITING_VIEWS);
        this.dropPlaced();
        break;
      case 'turn.ended':
        if (this.runningTurnId === event.turnId) this.runningTurnId = undefined;
        this.updateTurn(event.turnId, (turn) => {
          const unsent = new Set(event.unsentSegments);
          const aborted = event.outcome === 'aborted';
          // A stopped turn keeps no reply (plugin-agent.zh.md 「停下」), but what the reader saw stays on the page,
          // marked as stopped and not kept (a reload shows the turn as stopped without it, as the history has it);
          // tool calls that ran stay, as they do in the history; calls still being written go.
          // A failed turn's 「[错误] …」 notice says what its outcome line says; the history keeps only the outcome,
          // so the live view drops the notice too (one error, live and after a reload).
          const items = turn.items
            .filter((item) => !aborted || !isUnfinishedTool(item))
            .filter((item) => !aborted || item.kind !== 'text' || item.text !== '')
            .filter((item) => event.outcome !== 'error' || item.kind !== 'notice' || item.tone !== 'error')
            .map((item) => {
              if (item.kind !== 'text') return item;
              if (aborted) return { ...item, stopped: true, reasoning: '' };
              return unsent.has(item.segment) ? { ...item, unsent: true } : item;
            });
          return {
            ...turn,
            items,
            running: false,
            outcome: event.outcome,
            error: event.error,
            errors: event.errors,
            stoppedBy: event.stoppedBy ? personView(event.stoppedBy) : undefined,
          };
        });
        break;
      case 'delivery.failed': {
        // The whole note in each language when the server sent it (as the history shows it), else the reason.
        const { text, texts } = event;
        if (event.turnId === undefined)
          this.entries = [...this.entries, note(event.at, text, 'delivery-failure', texts)];
        else
          this.appendItem(event.turnId, {
            kind: 'notice',
            key: `delivery-${event.at}`,
            tone: 'delivery-failure',
            text,
            ...(texts ? { texts } : {}),
          });
        break;
      }
      case 'command':
        this.command(event.entry);
        break;
      case 'session.deleted':
        this.deleted = true;
        this.runningTurnId = undefined;
        this.waiting = [];
        break;
      case 'usage':
      case 'session.updated':
      case 'settings.changed':
        return; // other models follow these
    }
    this.changed();
  }

  protected buildSnapshot(): ConversationSnapshot {
    return {
      sessionId: this.sessionId,
      loaded: this.loaded,
      entries: this.entries,
      pending: this.pending.map((entry) => entry.input),
      runningTurnId: this.runningTurnId,
      waiting: this.waiting,
      truncated: this.truncated,
      deleted: this.deleted,
      editing: this.editing,
    };
  }

  private input(turnId: string | undefined, input: TimelineInput): void {
    const view = inputView(input);
    if (turnId === undefined) {
      if (!this.entries.some((entry) => entry.key === `released-${input.id}`))
        this.entries = [...this.entries, { kind: 'released', key: `released-${input.id}`, input: view }];
    } else if (input.entry === 'joined') {
      this.appendItem(turnId, { kind: 'input', key: `joined-${input.id}`, input: view });
    } else {
      this.updateTurn(turnId, (turn) =>
        turn.inputs.some((known) => known.key === view.key) ? turn : { ...turn, inputs: [...turn.inputs, view] },
      );
    }
    this.entries = answersAfter(this.entries, input.messageId);
    this.dropPlaced();
  }

  /** A command's line and answer as stored: it replaces the entry shown when `send` answered, or the pending bubble. */
  private command(entry: TimelineCommand): void {
    const view = commandView(entry);
    const index = this.entries.findIndex(
      (known) =>
        known.kind === 'command' &&
        (known.key === view.key || sameCommand(known, entry.messageId, view.input, entry.clientMessageId)),
    );
    this.entries = index >= 0 ? this.entries.with(index, view) : [...this.entries, view];
    this.entries = withoutEchoes(this.entries, entry.messageId, entry.reply);
    this.pending = this.pending.filter(
      (pending) =>
        (entry.clientMessageId === undefined || pending.clientMessageId !== entry.clientMessageId) &&
        (entry.messageId === undefined || pending.messageId !== entry.messageId),
    );
  }

  private message(event: Extract<SessionEvent, { type: 'message' }>): void {
    const { turnId, kind, text } = event;
    if (turnId === undefined) {
      // A command's answer also goes out as a message; the command entry shows it already.
      const replyTo = 'replyTo' in event && typeof event.replyTo === 'string' ? event.replyTo : undefined;
      const answered = this.entries.some(
        (entry) =>
          entry.kind === 'command' &&
          ((replyTo !== undefined && entry.input.messageId === replyTo) || entry.reply === text),
      );
      if (!answered) this.entries = [...this.entries, note(Date.now(), text, 'info', event.texts, replyTo)];
      return;
    }
    if (kind === 'reply') {
      // A reply that was not streamed (a provider without streaming): shown as the turn's text.
      this.updateTurn(turnId, (turn) =>
        turn.items.some((item) => item.kind === 'text' && item.text !== '')
          ? turn
          : {
              ...turn,
              items: [
                ...turn.items,
                { kind: 'text', key: 'text-reply', segment: -1, text, reasoning: '', unsent: false },
              ],
            },
      );
    } else {
      const tone = kind === 'error' ? 'error' : 'info';
      this.appendItem(turnId, {
        kind: 'notice',
        key: `notice-${turnItemsCount(this.entries, turnId)}`,
        tone,
        text,
        ...(event.texts ? { texts: event.texts } : {}),
      });
    }
  }

  /** The server shows the message: in a turn, released, or waiting to join / queued (docs/session-protocol.md). */
  private isPlaced(messageId: string): boolean {
    if (this.waiting.some((entry) => entry.messageId === messageId)) return true;
    for (const entry of this.entries) {
      if ((entry.kind === 'released' || entry.kind === 'command') && entry.input.messageId === messageId) return true;
      if (entry.kind !== 'turn') continue;
      if (entry.inputs.some((input) => input.messageId === messageId)) return true;
      if (entry.items.some((item) => item.kind === 'input' && item.input.messageId === messageId)) return true;
    }
    return false;
  }

  private dropPlaced(): void {
    this.pending = this.pending.filter((entry) => entry.messageId === undefined || !this.isPlaced(entry.messageId));
  }

  private updateTurn(turnId: string, update: (turn: TurnView) => TurnView): void {
    const index = this.entries.findIndex((entry) => entry.kind === 'turn' && entry.turnId === turnId);
    const current: TurnView =
      index >= 0
        ? (this.entries[index] as TurnView)
        : {
            kind: 'turn',
            key: `turn-${turnId}`,
            turnId,
            inputs: [],
            items: [],
            running: this.runningTurnId === turnId,
            versions: [],
          };
    if (index >= 0) {
      const next = update(current);
      if (next !== current) this.entries = this.entries.with(index, next);
      return;
    }
    // A new turn right after turns a rollback took out (edit, regenerate, retry) replaces them: they become its
    // earlier versions, as the timeline has them after a reload.
    const { kept, versions } = foldSuperseded(this.entries);
    this.entries = [...kept, update({ ...current, versions })];
  }

  private appendItem(turnId: string, item: TurnItemView): void {
    this.updateTurn(turnId, (turn) =>
      turn.items.some((known) => known.key === item.key) ? turn : { ...turn, items: [...turn.items, item] },
    );
  }

  private updateTool(
    turnId: string,
    callId: string,
    name: string | undefined,
    update: (card: ToolCardView) => ToolCardView,
  ): void {
    this.updateTurn(turnId, (turn) => {
      const found = turn.items.find((item): item is ToolCardView => item.kind === 'tool' && item.callId === callId);
      const card: ToolCardView = found ?? {
        kind: 'tool',
        key: `tool-${callId}`,
        callId,
        name: name ?? '',
        argumentsText: '',
        state: 'writing',
      };
      const next = update(name ? { ...card, name } : card);
      return { ...turn, items: found ? replaceItem(turn.items, found, next) : [...turn.items, next] };
    });
  }
}

/** The superseded turns at the end of the entries, grouped by rollback (oldest first), and what is left. */
function foldSuperseded(entries: readonly EntryView[]): { kept: EntryView[]; versions: TurnView[][] } {
  let start = entries.length;
  while (start > 0) {
    const entry = entries[start - 1];
    if (entry?.kind !== 'turn' || !entry.superseded) break;
    start -= 1;
  }
  const versions: TurnView[][] = [];
  let previous: TurnView | undefined;
  for (const turn of entries.slice(start).filter((entry): entry is TurnView => entry.kind === 'turn')) {
    // A replaced turn that had versions of its own (regenerated twice): those come first, oldest first.
    if (turn.versions.length > 0) {
      versions.push(...turn.versions.map((version) => [...version]));
      previous = undefined;
    }
    const last = previous?.superseded?.rollbackId === turn.superseded?.rollbackId ? versions.at(-1) : undefined;
    if (last) last.push({ ...turn, versions: [] });
    else versions.push([{ ...turn, versions: [] }]);
    previous = turn;
  }
  return { kept: entries.slice(0, start), versions };
}

/** The command entry stands for the same line: the same message id, or the same text sent from here. */
function sameCommand(
  known: CommandEntryView,
  messageId: string | undefined,
  input: InputView,
  clientMessageId?: string,
): boolean {
  if (messageId !== undefined && known.input.messageId === messageId) return true;
  // The entry shown when `send` answered, before the stored one came: same text, no reply event yet.
  return clientMessageId !== undefined && known.key.startsWith('command-local-') && known.input.text === input.text;
}

function note(
  at: number,
  text: string,
  tone: 'info' | 'delivery-failure' = 'delivery-failure',
  texts?: LocaleTexts,
  replyTo?: string,
): EntryView {
  return {
    kind: 'note',
    key: `note-${at}-${text.length}`,
    tone,
    text,
    ...(texts ? { texts } : {}),
    ...(replyTo !== undefined ? { replyTo } : {}),
  };
}

/**
 * A notice answering an input (a held-back message) goes out before that input is stored, so it arrives first: it
 * moves to just after the entry that holds the input, as the timeline has it after a reload.
 */
function answersAfter(entries: EntryView[], messageId: string | undefined): EntryView[] {
  if (messageId === undefined) return entries;
  const holder = entries.findIndex((entry) => holdsInput(entry, messageId));
  const early = entries.filter(
    (entry, index) => index < holder && entry.kind === 'note' && entry.replyTo === messageId,
  );
  if (early.length === 0) return entries;
  const rest = entries.filter((entry) => !early.includes(entry));
  const at = rest.indexOf(entries[holder]!) + 1;
  return [...rest.slice(0, at), ...early, ...rest.slice(at)];
}

/**
 * A command's answer also goes out as a message; one that came before its command entry was shown as a note. The
 * command entry shows the answer: the note goes.
 */
function withoutEchoes(entries: EntryView[], messageId: string | undefined, reply: string | undefined): EntryView[] {
  const echo = (entry: EntryView) =>
    entry.kind === 'note' &&
    entry.tone === 'info' &&
    ((messageId !== undefined && entry.replyTo === messageId) || (reply !== undefined && entry.text === reply));
  return entries.some(echo) ? entries.filter((entry) => !echo(entry)) : entries;
}

function holdsInput(entry: EntryView, messageId: string): boolean {
  if (entry.kind === 'released' || entry.kind === 'command') return entry.input.messageId === messageId;
  if (entry.kind !== 'turn') return false;
  return (
    entry.inputs.some((input) => input.messageId === messageId) ||
    entry.items.some((item) => item.kind === 'input' && item.input.messageId === messageId)
  );
}

function isUnfinishedTool(item: TurnItemView): boolean {
  return item.kind === 'tool' && (item.state === 'writing' || item.state === 'running');
}

function replaceItem(items: readonly TurnItemView[], from: TurnItemView, to: TurnItemView): TurnItemView[] {
  return items.map((item) => (item === from ? to : item));
}

function turnItemsCount(entries: readonly EntryView[], turnId: string): number {
  const turn = entries.find((entry) => entry.kind === 'turn' && entry.turnId === turnId);
  return turn?.kind === 'turn' ? turn.items.length : 0;
}

/** The text item of a model call (segment), created at the end when it is the first delta of that call. */
function textItem(
  turn: TurnView,
  segment: number,
): { items: readonly TurnItemView[]; item: Extract<TurnItemView, { kind: 'text' }> } {
  const found = turn.items.find(
    (item): item is Extract<TurnItemView, { kind: 'text' }> => item.kind === 'text' && item.segment === segment,
  );
  if (found) return { items: turn.items, item: found };
  const item = { kind: 'text' as const, key: `text-${segment}`, segment, text: '', reasoning: '', unsent: false };
  return { items: [...turn.items, item], item };
}
