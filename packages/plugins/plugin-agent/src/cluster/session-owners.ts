// Hand-over of inputs to the process that owns their session (docs/decisions/input-hand-over.md): on a shared engine
// every input goes into the session's durable queue (storage.handOver(), `session:<id>`); the holder of the session's
// lease takes the items in arrival order and places them into its own channel exactly like local inputs (join, queue,
// open); the accepting process's handleMessage settles when the owner finishes the item. An owner keeps the lease while
// its channel is busy or items wait; one taking over from a process that died records the interrupted turn as stopped,
// finishes the items already in it and runs the rest (item-placement.ts places them).
import { type AbortOptions, agentErrors } from '@aalis/api-agent';
import type { HandOverService, Lease, LeasesService } from '@aalis/api-storage';
import type { IncomingMessage } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import type { InputPlacement, LocalTurns } from '../channel/input-placement.js';
import type { Batch, PendingInput, RunningTurn, SessionChannel } from '../channel/session-channel.js';
import type { SessionChannels } from '../channel/session-channels.js';
import { CLEARING_MARKER, STOPPED, serializeInput } from './hand-over-items.js';
import { ItemPlacement, type LocalWaiter, type Owned } from './item-placement.js';
import { everyHalfLease, recordInterruptedTurn, type SessionHold, sessionLeaseName } from './session-lease.js';
import { SessionSignals, type StopAnswer, type StopRequest } from './session-signals.js';
import { TerminalForwarding } from './terminal-forwarding.js';

export type { StopAnswer, StopRequest } from './session-signals.js';

/** How an accepted input's wait ended: opened here (its turn runs in this handleMessage), or settled. */
type Waited = { opened: { batch: Batch; channel: SessionChannel } } | { stoppedElsewhere: boolean };

const PREFIX = sessionLeaseName('');
const sessionOf = (name: string) => (name.startsWith(PREFIX) ? name.slice(PREFIX.length) : undefined);
const NOOP_HOLD: SessionHold = { proceed: true, release: async () => {} };
/**
 * Why an input's wait for an outcome elsewhere ends: its item was placed or settled here, or the process shuts down.
 * A reason given, so no AbortError (a DOMException with its stack) is built per input.
 */
const ANSWERED_HERE = 'answered here';
const SHUTTING_DOWN = 'shutting down';

export class SessionOwners implements InputPlacement {
  private readonly owned = new Map<string, Owned>();
  private readonly local = new Map<number, LocalWaiter>();
  /** Per session: how many inputs accepted here are not settled yet (their items may still need an owner). */
  private readonly outstanding = new Map<string, number>();
  /** Per session: the background wait for the lease (a process that could not take it at once). */
  private readonly awaiting = new Map<string, AbortController>();
  private readonly chains = new Map<string, Promise<void>>();
  /**
   * The background waits for a lease (awaitLease) until what they took is owned: a claim already sent when the
   * shutdown aborts the wait can still win, and the taker's steps after it (recording a dead owner's turn) must run
   * before the storage closes, which handedBack waits for.
   */
  private readonly acquiring = new Set<Promise<void>>();
  /** Takes and places the items of the sessions this process holds (item-placement.ts). */
  private readonly placement: ItemPlacement;
  /** Each accepted input's wait for its item to be settled elsewhere: ended at shutdown (close). */
  private readonly remoteWaits = new Set<AbortController>();
  private readonly disposers: Array<() => void> = [];
  /** Shut down: nothing more is taken; leases are given back as channels go idle. */
  private closed = false;
  /** Stops sent to and answered by whoever runs a session (session-signals.ts). */
  readonly signals: SessionSignals;
  /** Replies of turns run here to the terminals of other processes whose lines they answer. */
  private readonly forwarding: TerminalForwarding;

  constructor(
    private readonly deps: AgentDeps,
    private readonly queue: HandOverService,
    private readonly leases: LeasesService,
    private readonly channels: SessionChannels,
    private readonly turns: LocalTurns,
  ) {
    this.placement = new ItemPlacement({
      deps,
      queue,
      channels,
      turns,
      local: this.local,
      holder: leases.holder,
      closed: () => this.closed,
    });
    this.forwarding = new TerminalForwarding(deps, {
      queue,
      holder: leases.holder,
      timeoutMs: Math.max(5000, 2 * leases.ttlMs),
    });
    this.signals = new SessionSignals(deps, queue, {
      owns: (sessionId) => this.owned.has(sessionId),
      takeIfFree: (sessionId) => this.takeIfFree(sessionId),
      peek: (sessionId) => channels.peek(sessionId),
      stopAsked: (sessionId, request) => turns.stop(sessionId, request),
    });
    this.disposers.push(
      () => this.signals.close(),
      // Another process's put matters to the session's holder; this process's own (an input it accepted, a
      // clearing marker) is taken here or leads to the lease, one pump per put.
      queue.onPut((name, mine) => {
        const sessionId = sessionOf(name);
        if (sessionId !== undefined && (mine || this.owned.has(sessionId))) this.pump(sessionId);
      }),
    );
  }

  /**
   * An input goes into its session's durable queue and is acknowledged (agent:accepted) once stored; resolves once
   * its item settled, here or elsewhere. The session's owner — maybe this process — places it by the channel's rules.
   */
  async accept(message: IncomingMessage, generation: number): Promise<void> {
    const sessionId = message.sessionId;
    this.outstanding.set(sessionId, (this.outstanding.get(sessionId) ?? 0) + 1);
    try {
      let id: number;
      try {
        ({ id } = await this.queue.put(sessionLeaseName(sessionId), serializeInput(message)));
      } catch (cause) {
        // Not stored, so not acknowledged: the sender is told, and the log says why.
        const error = agentErrors.AALIS_AGENT_INPUT_NOT_STORED({ sessionId, reason: String(cause) }, { cause });
        this.deps.log.error(error.message, { code: error.code, sessionId });
        throw error;
      }
      this.deps.events.emit('agent:accepted', { message, durable: true });
      let resolveLocal!: (waited: Waited) => void;
      const local = new Promise<Waited>((resolve) => {
        resolveLocal = resolve;
      });
      this.local.set(id, {
        open: (batch, channel) => resolveLocal({ opened: { batch, channel } }),
        settled: (stoppedElsewhere = false) => resolveLocal({ stoppedElsewhere }),
      });
      // The put's own notice (onPut, next turn of the event loop) takes it here or tries for the session's lease.
      // At shutdown the wait ends (close); the item stays queued for another process.
      const remote = new AbortController();
      if (this.closed) remote.abort(SHUTTING_DOWN);
      else this.remoteWaits.add(remote);
      const elsewhere = this.queue
        .settled(id, { signal: remote.signal })
        .then((outcome): Waited => ({ stoppedElsewhere: outcome === STOPPED }));
      const waited = await Promise.race([local, elsewhere]);
      this.remoteWaits.delete(remote);
      remote.abort(ANSWERED_HERE);
      this.local.delete(id);
      // Opened here: the turn runs in this handleMessage's async context, as a local input's would.
      if ('opened' in waited) await this.turns.run(waited.opened.channel, waited.opened.batch, generation);
      // Its turn was recorded as stopped on another process: no reply comes, and front ends here can say so.
      else if (waited.stoppedElsewhere) this.deps.events.emit('agent:stopped-elsewhere', { message });
    } finally {
      const left = (this.outstanding.get(sessionId) ?? 1) - 1;
      if (left > 0) this.outstanding.set(sessionId, left);
      else {
        this.outstanding.delete(sessionId);
        // Nothing of ours waits for the session any more: whoever holds it answers what others put.
        this.awaiting.get(sessionId)?.abort();
      }
    }
  }

  /** Whether inputs accepted here for the session are being answered (here or by its owner elsewhere). */
  hasOutstanding(sessionId: string): boolean {
    return (this.outstanding.get(sessionId) ?? 0) > 0;
  }

  /**
   * A clearing of these sessions began: what still waits in their hand-over queues was collected before it and is
   * dropped by whoever takes it; what this process took meanwhile is in its channels, dropped here.
   */
  async markCleared(sessionIds: readonly string[]): Promise<void> {
    try {
      await Promise.all(sessionIds.map((id) => this.queue.put(sessionLeaseName(id), CLEARING_MARKER)));
    } catch (error) {
      this.deps.log.warn('marking a clearing in the hand-over queues failed', { error: String(error) });
    }
    for (const id of sessionIds) this.channels.peek(id)?.dropQueued();
  }

  /** A stop of a session another process runs (or will): sent to it; whether inputs accepted here wait on it. */
  abortElsewhere(sessionId: string, options: AbortOptions): boolean | undefined {
    if (this.owns(sessionId)) return undefined;
    this.signals.forwardAbort(sessionId, options);
    return this.hasOutstanding(sessionId);
  }

  /** A /stop of a session another process runs: asked there. */
  stopElsewhere(sessionId: string, request: StopRequest): Promise<StopAnswer> | undefined {
    return this.owns(sessionId) ? undefined : this.signals.askStop(sessionId, request);
  }

  /**
   * Recovers sessions nobody live answers, without waiting for an input: every half lease time, sessions whose owner
   * died (abandoned leases) or whose items wait with no live holder are taken when free. Returns the stopper.
   */
  startRecovery(): () => Promise<void> {
    const stop = everyHalfLease(this.deps, () => this.sweep());
    return async () => {
      this.close();
      await stop();
    };
  }

  /** The lease side of a turn about to run here: its note in the lease and in each of its items. */
  async holdTurn(channel: SessionChannel, running: RunningTurn, inputs: readonly PendingInput[]): Promise<SessionHold> {
    const sessionId = channel.sessionId;
    const owned = this.owned.get(sessionId);
    if (!owned || owned.lost) return { proceed: false, release: async () => {} };
    this.placement.turnBegins(sessionId, running);
    this.forwarding.track(running);
    const note = JSON.stringify({ turnId: running.turnId, platform: inputs[0]?.message.platform ?? '' });
    await Promise.all([
      owned.lease.note(note),
      ...inputs.map((input) => this.placement.noteItem(input, running.turnId)),
    ]).catch((error: unknown) => this.deps.log.warn('noting the turn failed', { sessionId, error: String(error) }));
    return NOOP_HOLD;
  }

  /** The session's channel went idle: give the lease back unless items wait. */
  idle(sessionId: string): void {
    if (this.owned.has(sessionId)) void this.serial(sessionId, () => this.maybeRelease(sessionId));
  }

  /** Takes sessions whose items nobody live holds (their accepting process or owner died) when their lease is free. */
  async sweep(): Promise<void> {
    if (this.closed) return;
    const names = new Set([
      ...(await this.leases.abandoned(PREFIX)),
      ...(await this.queue.waiting(PREFIX, { olderThanMs: this.leases.ttlMs })),
    ]);
    for (const name of names) {
      const sessionId = sessionOf(name);
      if (sessionId === undefined) continue;
      // A session this process holds whose items still wait (an earlier take failed): taken again.
      if (this.owned.has(sessionId)) this.pump(sessionId);
      else await this.takeIfFree(sessionId);
    }
    for (const owned of this.owned.values()) {
      if (owned.interrupted !== undefined || this.placement.keptDue(owned.sessionId)) this.pump(owned.sessionId);
    }
  }

  /**
   * Takes the session if no live process holds it — recording a dead owner's turn, placing what waits — and gives
   * it back once idle. Whether it was free.
   */
  async takeIfFree(sessionId: string): Promise<boolean> {
    let free = false;
    await this.serial(sessionId, async () => {
      // Shutting down: a lease taken now would be taken after handedBack looked at the chains, and the storage
      // closing under it would lose a dead owner's note (the claim clears it from the row) before it is recorded.
      if (this.closed || this.owned.has(sessionId)) return;
      const lease = await this.leases.tryAcquire(sessionLeaseName(sessionId));
      if (!lease) return;
      free = true;
      const owned = await this.own(sessionId, lease);
      await this.takeAndPlace(owned);
      await this.maybeRelease(sessionId);
    });
    return free;
  }

  /**
   * Shutdown (the drain): nothing more is taken; inputs accepted here stop waiting for other processes (their items
   * stay queued for them); the inputs waiting in this process's channels, not yet in a turn — every one is a queue
   * item, whichever process accepted it — are handed back: taken out unsettled and unarchived, their items left
   * unfinished, so the next owner takes them again once this one gives the lease back (handedBack), instead of the
   * spec's release (archived without a turn) that a single process does at shutdown. Called before the drain stops
   * the running turns. Lines typed into this process's own terminal are the exception: the terminal leaves with the
   * process, so they are released by the spec's rule.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const remote of this.remoteWaits) remote.abort(SHUTTING_DOWN);
    this.remoteWaits.clear();
    for (const controller of this.awaiting.values()) controller.abort();
    for (const dispose of this.disposers.splice(0)) dispose();
    for (const sessionId of this.owned.keys()) {
      const handed = this.channels.peek(sessionId)?.withdraw((input) => this.placement.handsBack(input)) ?? [];
      if (handed.length > 0) {
        this.deps.log.info('shutting down: inputs not yet in a turn go back to the session queue', {
          sessionId,
          items: handed.map((input) => this.placement.itemOfInput(input)),
        });
      }
    }
  }

  /**
   * The end of the drain: every session this process owns whose channel is idle gives its lease back now (not by
   * expiry), so another process takes the session and what waits for it at once (the release NOTIFYs waiters).
   */
  async handedBack(): Promise<void> {
    // What a wait for a lease won as the shutdown began is owned (and its dead owner's turn recorded) first.
    while (this.acquiring.size > 0) await Promise.all([...this.acquiring]);
    // So is what a take under way as it began (its claim sent, nothing owned yet) won.
    await Promise.all([...this.chains.values()]);
    // Twice: a turn's end releases through the serial chain too; what it left is released by the second round.
    for (let round = 0; round < 2 && this.owned.size > 0; round++) {
      await Promise.all([...this.chains.values()]);
      await Promise.all([...this.owned.keys()].map((id) => this.serial(id, () => this.maybeRelease(id))));
    }
  }

  /** Whether this process owns the session now. */
  owns(sessionId: string): boolean {
    return this.owned.has(sessionId);
  }

  private pump(sessionId: string): void {
    if (this.closed) return;
    void this.serial(sessionId, async () => {
      let owned = this.owned.get(sessionId);
      if (!owned) {
        // Shutting down: no session is taken any more (see takeIfFree).
        if (this.closed) return;
        const lease = await this.leases.tryAcquire(sessionLeaseName(sessionId));
        if (!lease) {
          this.awaitLease(sessionId);
          return;
        }
        owned = await this.own(sessionId, lease);
      }
      await this.takeAndPlace(owned);
      await this.maybeRelease(sessionId);
    });
  }

  /**
   * Another process holds the session: its onPut answers our items. Waiting for the lease meanwhile closes the gap
   * between that holder's last take and its release: whatever is left then, this process takes.
   */
  private awaitLease(sessionId: string): void {
    if (this.closed || this.awaiting.has(sessionId) || !this.hasOutstanding(sessionId)) return;
    const controller = new AbortController();
    this.awaiting.set(sessionId, controller);
    const acquiring = this.leases
      // The holder's release wakes this at once; the slow poll only notices a holder that died (the sweep does too).
      .acquire(sessionLeaseName(sessionId), {
        signal: controller.signal,
        pollMs: Math.max(250, Math.floor(this.leases.ttlMs / 4)),
      })
      .then((lease) => {
        if (this.awaiting.get(sessionId) === controller) this.awaiting.delete(sessionId);
        if (!lease) return;
        return this.serial(sessionId, async () => {
          const owned = this.owned.get(sessionId) ?? (await this.own(sessionId, lease));
          await this.takeAndPlace(owned);
          await this.maybeRelease(sessionId);
        });
      })
      .catch((error: unknown) => {
        if (this.awaiting.get(sessionId) === controller) this.awaiting.delete(sessionId);
        this.deps.log.warn('waiting for the session lease failed', { sessionId, error: String(error) });
      })
      .finally(() => this.acquiring.delete(acquiring));
    this.acquiring.add(acquiring);
  }

  /** This process now holds the session: a copy of the history another wrote is stale; a dead owner's turn is recorded. */
  private async own(sessionId: string, lease: Lease): Promise<Owned> {
    if (lease.previousHolder !== this.leases.holder) this.deps.historyCache.forget([sessionId]);
    const owned: Owned = { sessionId, lease, lost: false, interrupted: lease.takenOver?.note };
    this.owned.set(sessionId, owned);
    lease.lost.addEventListener('abort', () => this.onLost(owned), { once: true });
    await this.recordInterrupted(owned);
    return owned;
  }

  /**
   * Records the dead owner's turn as stopped. Until that succeeded the session is kept (its lease carries the dead
   * owner's note, so a taker after this process's own death still records it) and nothing is placed.
   */
  private async recordInterrupted(owned: Owned): Promise<void> {
    const note = owned.interrupted;
    if (note === undefined) return;
    try {
      await recordInterruptedTurn(this.deps, owned.sessionId, note);
      owned.interrupted = undefined;
    } catch (error) {
      await owned.lease.note(note).catch(() => {});
      throw error;
    }
  }

  private onLost(owned: Owned): void {
    owned.lost = true;
    if (this.owned.get(owned.sessionId) === owned) {
      this.owned.delete(owned.sessionId);
      this.placement.forget(owned.sessionId);
    }
    this.deps.log.warn(
      'the session lease was lost (this process stalled past its expiry); its inputs go to the next owner',
      {
        sessionId: owned.sessionId,
      },
    );
    // Their items stay unfinished: the next owner takes them again (those already in the stopped turn as stopped),
    // and the running turn writes nothing more (the new owner records it as stopped).
    const channel = this.channels.peek(owned.sessionId);
    if (channel?.running) channel.running.superseded = true;
    channel?.stop({ reason: 'lease lost', release: 'drop' });
  }

  private async takeAndPlace(owned: Owned): Promise<void> {
    await this.recordInterrupted(owned);
    await this.placement.takeAll(owned);
  }

  private async maybeRelease(sessionId: string): Promise<void> {
    const owned = this.owned.get(sessionId);
    if (!owned) return;
    const channel = this.channels.peek(sessionId);
    if (channel && !channel.idle) return;
    // Items put since the last take are placed (the channel becomes busy) rather than stranded by the release.
    await this.takeAndPlace(owned);
    const after = this.channels.peek(sessionId);
    if (after && !after.idle) return;
    // Inputs that could not be stored wait here for the next try (the sweep); the lease stays ours meanwhile.
    if (this.placement.hasKept(sessionId)) return;
    this.owned.delete(sessionId);
    this.placement.forget(sessionId);
    await owned.lease.release().catch((error: unknown) =>
      this.deps.log.warn('giving the session lease back failed; it expires by itself', {
        sessionId,
        error: String(error),
      }),
    );
  }

  /** Runs `fn` after every earlier step of the session in this process (taking, placing, releasing). */
  private serial(sessionId: string, fn: () => Promise<void>): Promise<void> {
    const before = this.chains.get(sessionId) ?? Promise.resolve();
    const next = before.then(fn).catch((error: unknown) =>
      this.deps.log.warn('handing inputs to the session owner failed; retried by the sweep', {
        sessionId,
        error: String(error),
      }),
    );
    this.chains.set(sessionId, next);
    void next.finally(() => {
      if (this.chains.get(sessionId) === next) this.chains.delete(sessionId);
    });
    return next;
  }
}
