// Placing a session's handed-over items on this process, which holds its lease (docs/decisions/input-hand-over.md): the
// items are taken in arrival order; those put before a clearing are dropped; a dead owner's items whose input entered
// its stopped turn are settled as stopped; the others are placed into the channel exactly like local inputs (join,
// queue, open) and finished when their input settles there ('stopped' when its turn was stopped).
import type { HandOverItem, HandOverService, Lease } from '@aalis/api-storage';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import type { LocalTurns } from '../channel/input-placement.js';
import type { Batch, PendingInput, RunningTurn, SessionChannel } from '../channel/session-channel.js';
import { generationOf, keepAsContext, type SessionChannels } from '../channel/session-channels.js';
import { isUnstored } from '../channel/unstored-inputs.js';
import { CLEARING_MARKER, enteredTurn, lastClearing, noteTurn, parseItem, STOPPED } from './hand-over-items.js';
import { sessionLeaseName } from './session-lease.js';

/** A session this process holds the lease of. */
export interface Owned {
  readonly sessionId: string;
  readonly lease: Lease;
  /** The lease was lost (or is being handed back): taken items are left for the next owner, not finished. */
  lost: boolean;
  /** The note of a dead owner's turn not recorded as stopped yet (recording failed): retried before placing. */
  interrupted: string | undefined;
}

/** An input accepted by this process, waiting for its item to be placed here or settled anywhere. */
export interface LocalWaiter {
  open(batch: Batch, channel: SessionChannel): void;
  /** `stoppedElsewhere`: its turn ran on another process (one that died) and was recorded as stopped. */
  settled(stoppedElsewhere?: boolean): void;
}

interface Kept {
  items: HandOverItem[];
  finishes: { id: number; outcome: string }[];
  retryAt: number;
  pauseMs: number;
}

/** Items one take asks for: a take that returns fewer has taken all there were. */
const TAKE_LIMIT = 100;

/** The first pause before an input that could not be stored is placed again, and the longest (it doubles between). */
const KEPT_FIRST_PAUSE_MS = 500;
const KEPT_LONGEST_PAUSE_MS = 30_000;

export interface PlacementContext {
  deps: AgentDeps;
  queue: HandOverService;
  /** This process's channels, where taken items are placed. */
  channels: SessionChannels;
  turns: LocalTurns;
  /** The inputs accepted by this process, by item id. */
  local: ReadonlyMap<number, LocalWaiter>;
  /** This process's lease holder id (the id of its own terminal, if it has one). */
  holder: string;
  /** Shut down: nothing more is taken or placed; what is left stays taken for the next owner. */
  closed(): boolean;
}

export class ItemPlacement {
  /** The queue item of each input placed from the queue. */
  private readonly itemOf = new WeakMap<PendingInput, number>();
  /** Per owned session: the latest turn run here (tells whether an input's turn was stopped when it settles). */
  private readonly turns = new Map<string, RunningTurn>();
  /**
   * Per owned session, what a failing database left undone: items whose input could not be stored (their turn failed
   * archiving it), kept taken and placed again in order, and finished items whose outcome could not be written; both
   * tried again at the next take from `retryAt` on (a pause doubling while storage keeps failing).
   */
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly context: PlacementContext) {}

  /** A turn begins in the session here. */
  turnBegins(sessionId: string, running: RunningTurn): void {
    this.turns.set(sessionId, running);
  }

  /** The session's lease is given back. */
  forget(sessionId: string): void {
    this.turns.delete(sessionId);
    // Not owned any more: the kept items are orphaned in the queue, and the next owner takes them again.
    this.kept.delete(sessionId);
  }

  /** Whether inputs of the session wait to be stored again here (the lease is kept meanwhile). */
  hasKept(sessionId: string): boolean {
    return this.kept.has(sessionId);
  }

  /** Whether the session's kept inputs are due to be tried again. */
  keptDue(sessionId: string, now = Date.now()): boolean {
    const kept = this.kept.get(sessionId);
    return kept !== undefined && now >= kept.retryAt;
  }

  private keptOf(sessionId: string): Kept {
    let kept = this.kept.get(sessionId);
    if (!kept) {
      kept = { items: [], finishes: [], retryAt: Date.now() + KEPT_FIRST_PAUSE_MS, pauseMs: KEPT_FIRST_PAUSE_MS };
      this.kept.set(sessionId, kept);
    }
    return kept;
  }

  private keep(sessionId: string, item: HandOverItem): void {
    const kept = this.keptOf(sessionId);
    if (!kept.items.some((other) => other.id === item.id)) kept.items.push(item);
    kept.items.sort((a, b) => a.id - b.id);
  }

  /** Finishes an item; a failed write is tried again later (the item must not be taken and run twice). */
  private async finishItem(sessionId: string, id: number, outcome: string): Promise<void> {
    try {
      await this.context.queue.finish(id, outcome);
    } catch (error) {
      this.context.deps.log.warn('finishing a handed-over input failed; tried again', {
        sessionId,
        item: id,
        error: String(error),
      });
      this.keptOf(sessionId).finishes.push({ id, outcome });
    }
  }

  /** Tries what a failing database left undone once due: finishes first, then the kept items (oldest first). */
  private async retryKept(owned: Owned): Promise<void> {
    const kept = this.kept.get(owned.sessionId);
    if (!kept || Date.now() < kept.retryAt) return;
    const pauseMs = Math.min(kept.pauseMs * 2, KEPT_LONGEST_PAUSE_MS);
    this.kept.delete(owned.sessionId);
    for (const { id, outcome } of kept.finishes) await this.finishItem(owned.sessionId, id, outcome);
    for (const item of kept.items) {
      if (owned.lost || this.context.closed()) return;
      await this.place(owned, item);
    }
    const again = this.kept.get(owned.sessionId);
    if (again) {
      again.pauseMs = pauseMs;
      again.retryAt = Date.now() + pauseMs;
    }
  }

  /** The item id of an input placed from the queue. */
  itemOfInput(input: PendingInput): number | undefined {
    return this.itemOf.get(input);
  }

  /**
   * Takes what waits in the session's queue and places it, until nothing is left (or the lease went, or closed). A
   * take that found fewer items than it could take found all there were: while this process holds the lease, an item
   * becomes takeable only by a put (a dead holder's items are orphaned at once and were in that take), and every put
   * pumps the session again behind this one, so it is not looked for again here.
   */
  async takeAll(owned: Owned): Promise<void> {
    const { deps, queue, local } = this.context;
    await this.retryKept(owned);
    for (let more = true; more; ) {
      if (owned.lost || this.context.closed()) return;
      const items = await queue.take(sessionLeaseName(owned.sessionId), { limit: TAKE_LIMIT });
      if (items.length === 0) return;
      more = items.length === TAKE_LIMIT;
      let history: Message[] | undefined;
      const cleared = lastClearing(items);
      for (const [index, item] of items.entries()) {
        // Shutting down meanwhile: what is left stays taken by this process, so the next owner takes it again.
        if (owned.lost || this.context.closed()) return;
        if (index <= cleared) {
          // Put before a clearing of the session began (CLEARING_MARKER): dropped, unarchived; its input settles.
          await this.finishItem(owned.sessionId, item.id, item.payload === CLEARING_MARKER ? 'clearing' : 'dropped');
          local.get(item.id)?.settled();
          continue;
        }
        if (item.orphaned && item.note !== undefined) {
          // Taken by an owner that died: inputs that entered its (now stopped) turn are done, the rest run here.
          history ??= deps.memory.available ? await deps.memory.use.readAll(owned.sessionId) : [];
          const message = parseItem(item);
          if (!message || enteredTurn(history, noteTurn(item.note), message)) {
            await this.finishItem(owned.sessionId, item.id, STOPPED);
            local.get(item.id)?.settled(true);
            continue;
          }
        }
        await this.place(owned, item);
      }
    }
  }

  private async place(owned: Owned, item: HandOverItem): Promise<void> {
    const { deps, channels } = this.context;
    const local = this.context.local.get(item.id);
    const message = parseItem(item);
    if (!message) {
      deps.log.warn('a handed-over input could not be read; dropped', {
        sessionId: owned.sessionId,
        item: item.id,
      });
      await this.finishItem(owned.sessionId, item.id, 'unreadable');
      return;
    }
    const channel = await channels.unheld(owned.sessionId);
    if (this.context.closed()) return;
    const finish = (outcome: string) => {
      if (owned.lost) return;
      if (isUnstored(message)) {
        // Its archiving failed: the item stays taken and this process keeps the lease, placing it again until it
        // is stored (or, should this process die, the next owner takes it again as orphaned). The accepting side
        // stops waiting meanwhile: its acknowledgement was given when the item was stored.
        deps.log.warn('an input could not be stored; it stays queued and is tried again', {
          sessionId: owned.sessionId,
          item: item.id,
        });
        this.keep(owned.sessionId, item);
        local?.settled();
        return;
      }
      void this.finishItem(owned.sessionId, item.id, outcome);
      local?.settled();
    };
    if (message.triggerType === 'ambient' && channel.idle) {
      await keepAsContext(deps, message);
      finish('context');
      channels.releaseIfIdle(channel);
      return;
    }
    const generation = generationOf(deps, owned.sessionId);
    const pending: PendingInput = {
      message,
      // Stopped (a stop, a shutdown's drain): the accepting process learns it from the outcome.
      settle: () => finish(this.stoppedIn(owned.sessionId, pending) ? STOPPED : 'settled'),
      open: (batch) => {
        if (local) local.open(batch, channel);
        else void this.runHere(channel, batch, generation);
      },
    };
    this.itemOf.set(pending, item.id);
    const running = channel.running;
    if (running?.human && running.acceptingJoins && message.source === undefined) {
      // Noted before it can join, so a taker after a crash can tell whether it entered this turn.
      await this.noteItem(pending, running.turnId);
      if (this.context.closed()) return;
    }
    if (channel.place(pending) === 'open') {
      channel.claimOpening();
      pending.open({ inputs: [pending], fromQueue: false });
    }
  }

  /** A batch opened by an input accepted elsewhere runs in the background here. */
  private async runHere(channel: SessionChannel, batch: Batch, generation: number): Promise<void> {
    const { deps, channels, turns } = this.context;
    try {
      await turns.run(channel, batch, generation);
    } catch (error) {
      deps.log.error('a handed-over turn failed', { sessionId: channel.sessionId, error: String(error) });
    } finally {
      channels.releaseIfIdle(channel);
    }
  }

  /** Whether the drain hands this waiting input back: a queue item not typed into this process's own terminal. */
  handsBack(input: PendingInput): boolean {
    const terminal = input.message.metadata?.[WellKnownMetadataKeys.Terminal];
    return this.itemOf.has(input) && terminal !== this.context.holder;
  }

  /** Whether the input settles as part of this session's latest turn here and that turn was stopped. */
  private stoppedIn(sessionId: string, input: PendingInput): boolean {
    const turn = this.turns.get(sessionId);
    // A stop aborts a turn only before its commit point (a committed turn stores its reply: 'settled').
    return turn?.inputs.includes(input) === true && turn.controller.signal.aborted;
  }

  /** Notes the turn an input is entering in its item (a taker after a crash reads it). */
  async noteItem(input: PendingInput, turnId: string): Promise<void> {
    const id = this.itemOf.get(input);
    if (id !== undefined) await this.context.queue.note(id, JSON.stringify({ turnId }));
  }
}
