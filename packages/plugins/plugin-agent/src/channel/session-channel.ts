// The per-session channel (plugin-agent.zh.md 「新消息怎么处理」, 「会话删除」; api-agent.zh.md abort/clearing):
// at most one running turn per session; real-person inputs join a running real-person turn until its final reply
// is being written; everything else queues; a finished turn opens the next from the queue head. The turn runs in
// the async context of the handleMessage call of the earliest input of its batch.
import type { QueueDisposition } from '@aalis/api-agent';
import type { Identity, IncomingMessage } from '@aalis/schema-message';

/** Where an input went when handed to the channel (for the debug log line). */
export type Placement = 'join' | 'queue' | 'open';

export interface PendingInput {
  readonly message: IncomingMessage;
  /** Resolves that input's handleMessage. */
  settle(): void;
  /** Called on the earliest input of a batch opened from the queue: its handleMessage runs the turn. */
  open(batch: Batch): void;
}

export interface Batch {
  inputs: PendingInput[];
  /** Opened from the queue: the inputs arrived while an earlier turn ran (header 「下面几条是你上一轮进行期间到的」). */
  fromQueue: boolean;
}

export interface RunningTurn {
  readonly turnId: string;
  /** A turn opened by real-person input accepts joins; an injection's turn does not. */
  readonly human: boolean;
  readonly controller: AbortController;
  /** Inputs in the turn (opened and joined so far). */
  readonly inputs: PendingInput[];
  /** False once the final reply is being written or the turn was stopped. */
  acceptingJoins: boolean;
  /** Past the commit point (the reply is being stored, or the turn is ending): a stop no longer stops this turn. */
  committed: boolean;
  stoppedBy?: Identity;
  stopReason?: string;
  /**
   * Another process took the session over (this one lost its lease): as after a deletion began, the turn stores
   * and sends nothing more — the new owner has recorded it as stopped.
   */
  superseded?: boolean;
  /** Released by an abort with `queued` (archive without turn id once the turn settles). */
  releasedToArchive: PendingInput[];
  /** Resolves once the turn has ended and its inputs are settled. */
  readonly settled: Promise<void>;
  readonly markSettled: () => void;
}

export interface ChannelHooks {
  /** Called when released inputs must be archived without a turn id (after the running turn settled). */
  archiveReleased(inputs: readonly IncomingMessage[]): Promise<void>;
  /** 'agent:queue' — the waiting list changed. */
  queueChanged(sessionId: string, waiting: IncomingMessage[], dispositions: QueueDisposition[]): void;
  /** The debug lines: handed to the channel, entered a turn, released. */
  log(event: { kind: Placement | 'joined' | 'opened' | 'released'; message: IncomingMessage; turnId?: string }): void;
}

export class SessionChannel {
  running: RunningTurn | undefined;
  /** A batch was handed to its opener, whose turn has not begun yet: arrivals meanwhile must queue. */
  private opening = false;
  /**
   * Every input not yet in a turn, strictly in arrival order (agent:queue lists it as is). `joining` marks those
   * waiting to join the running turn at its next insertion point; one that misses the join simply stops being
   * marked and keeps its place, behind everything that arrived before it.
   */
  private readonly queue: Array<{ input: PendingInput; joining: boolean }> = [];
  private holds = 0;
  private holdReleased: Promise<void> = Promise.resolve();
  private releaseHold: (() => void) | undefined;

  constructor(
    readonly sessionId: string,
    private readonly hooks: ChannelHooks,
  ) {}

  get idle(): boolean {
    return this.running === undefined && !this.opening && this.queue.length === 0 && this.holds === 0;
  }

  /** Resolves when the session is not held (by clearing). */
  async whenUnheld(): Promise<void> {
    while (this.holds > 0) await this.holdReleased;
  }

  get held(): boolean {
    return this.holds > 0;
  }

  /** The opener found the session held (a clearing started meanwhile): its batch is dropped like queued inputs. */
  dropOpening(batch: readonly PendingInput[]): void {
    this.opening = false;
    for (const input of batch) this.hooks.log({ kind: 'released', message: input.message });
    settleAll(batch);
    this.publish();
  }

  hold(): void {
    if (this.holds === 0) {
      this.holdReleased = new Promise((resolve) => {
        this.releaseHold = resolve;
      });
    }
    this.holds++;
  }

  unhold(): void {
    if (this.holds === 0) return;
    this.holds--;
    if (this.holds === 0) this.releaseHold?.();
  }

  /**
   * Hands an input to the channel. Returns where it went; a `join` or `queue` input settles (or opens a later
   * batch) through its PendingInput callbacks.
   */
  place(input: PendingInput): Placement {
    const running = this.running;
    if (running) {
      if (running.human && running.acceptingJoins && input.message.source === undefined) {
        this.queue.push({ input, joining: true });
        this.hooks.log({ kind: 'join', message: input.message });
        this.publish();
        return 'join';
      }
      this.queue.push({ input, joining: false });
      this.hooks.log({ kind: 'queue', message: input.message });
      this.publish();
      return 'queue';
    }
    if (this.queue.length > 0 || this.opening) {
      // A turn is about to open from the queue; wait behind it.
      this.queue.push({ input, joining: false });
      this.hooks.log({ kind: 'queue', message: input.message });
      this.publish();
      return 'queue';
    }
    // Entering a turn is logged by the turn itself (→ 开轮 … turn=…).
    return 'open';
  }

  /**
   * The input just placed (`open`) opens its turn later, not in this call (a handed-over input whose accepting
   * handleMessage runs it): arrivals meanwhile queue behind it, as behind a batch opened from the queue.
   */
  claimOpening(): void {
    this.opening = true;
  }

  /** Marks a turn as running for its opening batch. */
  begin(turnId: string, batch: PendingInput[], human: boolean): RunningTurn {
    let markSettled!: () => void;
    const settled = new Promise<void>((resolve) => {
      markSettled = resolve;
    });
    const running: RunningTurn = {
      turnId,
      human,
      controller: new AbortController(),
      inputs: [...batch],
      acceptingJoins: human,
      committed: false,
      releasedToArchive: [],
      settled,
      markSettled,
    };
    this.running = running;
    this.opening = false;
    this.publish();
    return running;
  }

  /** Takes the inputs waiting to join (the insertion point), in arrival order. */
  takeJoins(): PendingInput[] {
    const running = this.running;
    if (!running?.acceptingJoins) return [];
    const taken = this.queue.filter((entry) => entry.joining).map((entry) => entry.input);
    if (taken.length === 0) return [];
    this.remove(taken);
    running.inputs.push(...taken);
    this.publish();
    return taken;
  }

  /** The final reply is being written: later real-person inputs queue; those waiting to join keep their place. */
  closeJoins(): void {
    const running = this.running;
    if (!running?.acceptingJoins) return;
    running.acceptingJoins = false;
    this.missJoins();
  }

  /**
   * Stops the running turn (when `turnId` is given, only if it matches; a mismatch stops and releases nothing).
   * With `release`, queued and waiting inputs are released too: archived without a turn id once the running turn
   * settles (`archive`), or dropped unarchived (`drop`). Returns whether a running turn was stopped: a turn past
   * its commit point (its reply is being stored) is not.
   */
  stop(options: { turnId?: string; by?: Identity; reason?: string; release?: 'archive' | 'drop' }): boolean {
    const running = this.running;
    if (options.turnId !== undefined && running?.turnId !== options.turnId) return false;
    const stoppable = running !== undefined && !running.committed;
    if (running) {
      if (stoppable && !running.controller.signal.aborted) {
        running.stoppedBy = options.by;
        running.stopReason = options.reason;
        running.controller.abort();
      }
      running.acceptingJoins = false;
      this.missJoins();
    }
    if (options.release) {
      const released = this.queue.splice(0, this.queue.length).map((entry) => entry.input);
      for (const input of released) this.hooks.log({ kind: 'released', message: input.message });
      if (options.release === 'drop') settleAll(released);
      else if (running) running.releasedToArchive.push(...released);
      else void this.hooks.archiveReleased(released.map((input) => input.message)).finally(() => settleAll(released));
    }
    this.publish();
    return stoppable;
  }

  /** Ends the running turn: settles its inputs, archives released ones, and opens the next batch. */
  async finish(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    // Anything still waiting to join (arrived during a stop) keeps its place in the queue.
    this.missJoins();
    settleAll(running.inputs);
    if (running.releasedToArchive.length > 0) {
      const released = running.releasedToArchive;
      await this.hooks.archiveReleased(released.map((input) => input.message)).finally(() => settleAll(released));
    }
    running.markSettled();
    this.openNext();
  }

  /** Opens the next batch from the queue head, unless a turn runs or the session is held. */
  openNext(): void {
    if (this.running || this.holds > 0) return;
    const head = this.queue[0]?.input;
    if (!head) return;
    // Every queued real-person input, in arrival order, opens the next turn together; an injection opens alone.
    const inputs =
      head.message.source === undefined
        ? this.queue.map((entry) => entry.input).filter((input) => input.message.source === undefined)
        : [head];
    this.remove(inputs);
    this.opening = true;
    this.publish();
    head.open({ inputs, fromQueue: true });
  }

  /** Releases every queued input without archiving (deletion, clearing). */
  dropQueued(): void {
    const dropped = this.queue.splice(0, this.queue.length).map((entry) => entry.input);
    for (const input of dropped) this.hooks.log({ kind: 'released', message: input.message });
    settleAll(dropped);
    this.publish();
  }

  /**
   * Takes the waiting inputs `which` picks out of the queue without settling or archiving them (a shutting-down
   * owner hands other processes' inputs back to the hand-over queue). Returns them in arrival order.
   */
  withdraw(which: (input: PendingInput) => boolean): PendingInput[] {
    const taken = this.queue.filter((entry) => which(entry.input)).map((entry) => entry.input);
    if (taken.length === 0) return [];
    this.remove(taken);
    this.publish();
    return taken;
  }

  /** Queued and waiting-to-join inputs, in arrival order. */
  waiting(): IncomingMessage[] {
    return this.queue.map((entry) => entry.input.message);
  }

  /** Inputs waiting to join that can no longer join stay where they are, now simply queued (the list is unchanged). */
  private missJoins(): void {
    for (const entry of this.queue) entry.joining = false;
  }

  private remove(inputs: readonly PendingInput[]): void {
    const gone = new Set(inputs);
    for (let index = this.queue.length - 1; index >= 0; index--) {
      if (gone.has(this.queue[index]!.input)) this.queue.splice(index, 1);
    }
  }

  private publish(): void {
    this.hooks.queueChanged(
      this.sessionId,
      this.waiting(),
      this.queue.map((entry) => (entry.joining ? 'join' : 'queue')),
    );
  }
}

/**
 * The one commit point of a reply (api-agent abort; plugin-agent 「停下」): false when the turn was stopped or its
 * session's deletion has begun (which stops it here); otherwise the turn is committed, and a stop from now on no
 * longer stops it (abort returns false). Synchronous, so no stop can land between the check and the mark.
 */
export function commitReply(running: RunningTurn, { deletionBegun }: { deletionBegun: boolean }): boolean {
  if (running.controller.signal.aborted) return false;
  if (deletionBegun) {
    running.stopReason ??= 'session deleted';
    running.controller.abort();
    return false;
  }
  running.committed = true;
  return true;
}

function settleAll(inputs: readonly PendingInput[]): void {
  for (const input of inputs) input.settle();
}
