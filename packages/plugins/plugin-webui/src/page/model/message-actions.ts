// Which of Edit, Regenerate and Retry a turn offers (Copy is on every message). All of them roll the conversation
// back by turn id (docs/session-protocol.md 「Rolling back」), which the server refuses while a turn runs, for a turn
// before the last compression divider and in read-only rooms: those are not offered. Edit is on the person's own
// messages; Regenerate on her last reply; Retry on the last turn when it failed or was stopped. Pure.
import type { EntryView, TurnView } from './conversation-types.js';

export interface TurnActions {
  edit: boolean;
  regenerate: boolean;
  retry: boolean;
}

export interface ActionContext {
  /** The logged-in account (Edit is offered on its own messages). */
  selfId: string | undefined;
  /** The account may write messages in this session (false in IM rooms and others' sessions). */
  canSend: boolean;
  /** A turn runs in the session. */
  running: boolean;
}

const NONE: TurnActions = { edit: false, regenerate: false, retry: false };

function ownTurn(turn: TurnView, selfId: string | undefined): boolean {
  const first = turn.inputs[0];
  return (
    first !== undefined &&
    selfId !== undefined &&
    first.sender?.userId === selfId &&
    first.sender.platform === 'webui' &&
    first.source === undefined
  );
}

/** The actions of every live turn by key; turns without an entry offer none. */
export function turnActions(entries: readonly EntryView[], context: ActionContext): Map<string, TurnActions> {
  const actions = new Map<string, TurnActions>();
  if (!context.canSend || context.running) return actions;
  let afterDivider = 0;
  entries.forEach((entry, index) => {
    if (entry.kind === 'divider') afterDivider = index + 1;
  });
  const live = entries
    .slice(afterDivider)
    .filter((entry): entry is TurnView => entry.kind === 'turn' && !entry.superseded && entry.turnId !== undefined);
  const last = live.at(-1);
  for (const turn of live) {
    const isLast = turn === last;
    const next = {
      edit: ownTurn(turn, context.selfId),
      regenerate: isLast && (turn.outcome === 'replied' || turn.outcome === 'silent'),
      retry: isLast && (turn.outcome === 'error' || turn.outcome === 'aborted'),
    };
    if (next.edit || next.regenerate || next.retry) actions.set(turn.key, next);
  }
  return actions;
}

/** The turn ↑ in an empty composer edits: the last one whose message Edit is offered on. */
export function lastEditable(entries: readonly EntryView[], context: ActionContext): TurnView | undefined {
  const actions = turnActions(entries, context);
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry?.kind === 'turn' && (actions.get(entry.key) ?? NONE).edit) return entry;
  }
  return undefined;
}
