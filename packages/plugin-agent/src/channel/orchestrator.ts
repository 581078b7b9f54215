// The AgentService: hands each input through agent:input:before to its session's channel, runs turns in the async
// context of the opening input's handleMessage, and implements abort, clearing, session deletion and draining
// (api-agent.zh.md 「服务接口」, plugin-agent.zh.md 「新消息怎么处理」, 「会话删除」).
import type { AbortOptions, AgentService, ModelRef, PreprocessorFn } from '@aalis/api-agent';
import { originTurnOf, sameIdentity } from '@aalis/api-authority';
import type { Disposer, RegistrationOwner } from '@aalis/core';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import { holdSession } from '../cluster/session-lease.js';
import { SessionOwners, type StopAnswer, type StopRequest } from '../cluster/session-owners.js';
import { routeLine } from '../log-format.js';
import { runTurn } from '../turn/turn-runner.js';
import { FIELD } from '../turn/turn-settings.js';
import { usageThrottle } from '../turn/usage-emitter.js';
import { type Batch, type PendingInput, SessionChannel } from './session-channel.js';
import { markUnstored } from './unstored-inputs.js';

let turnCounter = 0;
export function newTurnId(): string {
  turnCounter = (turnCounter + 1) % 1_000_000;
  return `turn_${Date.now().toString(36)}${turnCounter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The route line's label of each placement a channel logs. */
const ROUTE_LABELS = {
  join: '待插入',
  queue: '排队',
  open: '开轮',
  joined: '插入',
  opened: '开轮',
  released: '放掉',
} as const;

export class Orchestrator implements AgentService {
  private readonly channels = new Map<string, SessionChannel>();
  private readonly preprocessors = new Map<string, { handler: PreprocessorFn; dispose: Disposer }>();
  private globalHolds = 0;
  private globalRelease: Promise<void> = Promise.resolve();
  private releaseGlobal: (() => void) | undefined;

  /** On a shared engine: inputs are handed to their session's owner through the database (session-owners.ts). */
  readonly owners: SessionOwners | undefined;

  constructor(private readonly deps: AgentDeps) {
    const queue = deps.handOver();
    const leases = deps.leases();
    this.owners =
      queue && leases
        ? new SessionOwners(deps, queue, leases, {
            channel: (sessionId) => this.unheldChannel(sessionId),
            peek: (sessionId) => this.channels.get(sessionId),
            run: (channel, batch, generation) => this.run(channel, batch, generation),
            keepAsContext: (message) => this.keepAsContext(message),
            releaseIfIdle: (channel) => this.releaseIfIdle(channel),
            stopAsked: (sessionId, request) => this.stopAsCommand(sessionId, request),
            generationOf: (sessionId) =>
              deps.sessionManager.available ? deps.sessionManager.use.generationOf(sessionId) : 0,
          })
        : undefined;
  }

  async handleMessage(message: IncomingMessage): Promise<void> {
    const deps = this.deps;
    const generation = deps.sessionManager.available ? deps.sessionManager.use.generationOf(message.sessionId) : 0;
    const context = { message };
    const { reachedCentre } = await deps.hooks.use.run('agent:input:before', context, () =>
      this.deliver(context.message, generation),
    );
    if (!reachedCentre) {
      if (deps.log.enabled('debug')) deps.log.debug(routeLine({ label: '放掉', message }));
      deps.events.emit('outbound:stream', {
        sessionId: message.sessionId,
        turnId: '',
        platform: message.platform,
        done: true,
      });
    }
  }

  /** The centre of agent:input:before: resolves when this input has settled. */
  private async deliver(message: IncomingMessage, generation: number): Promise<void> {
    const deps = this.deps;
    const channel = await this.unheldChannel(message.sessionId);
    if (deps.sessionManager.available && deps.sessionManager.use.generationOf(message.sessionId) !== generation) {
      // Collected before a deletion started: released, not archived.
      if (deps.log.enabled('debug')) deps.log.debug(routeLine({ label: '放掉', message }));
      this.releaseIfIdle(channel);
      return;
    }
    if (this.owners) {
      // The session's owner (maybe this process) places it; the ambient and join rules apply there.
      await this.owners.accept(message, generation, () =>
        deps.events.emit('agent:accepted', { message, durable: true }),
      );
      this.releaseIfIdle(channel);
      return;
    }
    deps.events.emit('agent:accepted', { message, durable: false });
    if (message.triggerType === 'ambient' && channel.idle) {
      // A room message that did not address her, while nothing runs: no turn; kept as room context.
      await this.keepAsContext(message);
      this.releaseIfIdle(channel);
      return;
    }
    let resolveOpened!: (batch: Batch | undefined) => void;
    const opened = new Promise<Batch | undefined>((resolve) => {
      resolveOpened = resolve;
    });
    const pending: PendingInput = {
      message,
      settle: () => resolveOpened(undefined),
      open: (batch) => resolveOpened(batch),
    };
    const placement = channel.place(pending);
    const batch = placement === 'open' ? { inputs: [pending], fromQueue: false } : await opened;
    if (batch) await this.run(channel, batch, generation);
    this.releaseIfIdle(channel);
  }

  /** Archives an ambient input without a turn id: the next turn reads it from the history with its sender. */
  private async keepAsContext(message: IncomingMessage): Promise<void> {
    const deps = this.deps;
    if (deps.log.enabled('debug')) deps.log.debug(routeLine({ label: '留作上下文', message }));
    if (!deps.messageArchive.available) return;
    await deps.messageArchive.use.archiveIncoming(message).catch((error: unknown) => {
      markUnstored(message);
      deps.log.warn('archiving a room message as context failed', { error: String(error) });
    });
  }

  private async run(channel: SessionChannel, batch: Batch, generation: number): Promise<void> {
    if (batch.fromQueue && channel.held) {
      // A clearing began between the batch being handed over and its turn beginning: drop it, unarchived.
      channel.dropOpening(batch.inputs);
      return;
    }
    const human = batch.inputs[0]!.message.source === undefined;
    const running = channel.begin(newTurnId(), batch.inputs, human);
    // Across processes the database decides who runs the session's turn (session-lease.ts): wait for the lease,
    // or, with the hand-over, note the turn in the lease this owner already holds.
    const hold = this.owners
      ? await this.owners.holdTurn(channel.sessionId, running, batch.inputs)
      : await holdSession(
          this.deps,
          channel.sessionId,
          running,
          batch.inputs.map((input) => input.message),
        );
    try {
      if (hold.proceed) {
        await runTurn({
          deps: this.deps,
          channel,
          running,
          batch: batch.inputs,
          fromQueue: batch.fromQueue,
          generation,
        });
      }
    } finally {
      await hold.release();
      await channel.finish();
    }
  }

  abort(sessionId: string, options: AbortOptions = {}): boolean {
    if (this.owners && !this.owners.owns(sessionId)) {
      // Another process runs the session (or will): the stop goes to it.
      this.owners.signals.forwardAbort(sessionId, options);
      return this.owners.hasOutstanding(sessionId);
    }
    const channel = this.channels.get(sessionId);
    if (!channel) return false;
    return channel.stop({
      turnId: options.turnId,
      by: options.by,
      reason: options.reason ?? 'abort',
      release: options.queued ? 'archive' : undefined,
    });
  }

  async clearing(
    sessionIds: readonly string[] | undefined,
    clear: () => Promise<unknown>,
    reason?: string,
  ): Promise<void> {
    const targets = sessionIds ? sessionIds.map((id) => this.channel(id)) : [...this.channels.values()];
    if (!sessionIds) this.holdAll();
    for (const channel of targets) {
      channel.hold();
      channel.stop({ reason: reason ?? 'clearing', release: 'drop' });
    }
    try {
      if (this.owners && sessionIds) {
        // What still waits in the sessions' hand-over queues was collected before this clearing: dropped by
        // whoever takes it; what this process took meanwhile is in its channels, dropped again here.
        await this.owners.markCleared(sessionIds);
        for (const channel of targets) channel.dropQueued();
      }
      await Promise.all(targets.map((channel) => channel.running?.settled));
      await clear();
    } finally {
      for (const channel of targets) channel.unhold();
      if (!sessionIds) this.releaseAll();
      for (const channel of targets) channel.openNext();
      for (const channel of targets) this.releaseIfIdle(channel);
    }
  }

  /**
   * session:deleted: stop the running turn, drop what waits (unarchived), wait for the turn to settle, and let go
   * of everything kept for the session (usage-log throttle, history copy; its channel once idle).
   */
  async onSessionDeleted(sessionId: string): Promise<void> {
    const channel = this.channels.get(sessionId);
    if (channel) {
      const running = channel.running;
      channel.stop({ reason: 'session deleted', release: 'drop' });
      await running?.settled;
      this.releaseIfIdle(channel);
    }
    usageThrottle(this.deps).forget(sessionId);
    this.deps.historyCache.forget([sessionId]);
  }

  /**
   * Shutdown: stop every running turn with what waits (archived without turn id), and let them settle. On a shared
   * engine what waits goes back to the hand-over queue first instead (not released), and the leases are given back
   * once the turns settled, so another process answers it at once (docs/decisions/input-hand-over.md).
   */
  async drain(): Promise<void> {
    // Nothing more is taken from the hand-over queues: what waits there goes to another process.
    this.owners?.close();
    const running = [...this.channels.values()].map((channel) => {
      const turn = channel.running;
      channel.stop({ reason: 'shutdown', release: 'archive' });
      return turn?.settled;
    });
    await Promise.all(running);
    await this.owners?.handedBack();
  }

  registerPreprocessor(name: string, handler: PreprocessorFn, owner?: RegistrationOwner): Disposer {
    const key = `${owner?.instanceId ?? ''}/${name}`;
    this.preprocessors.get(key)?.dispose();
    const dispose = this.deps.hooks.use.middleware('agent:input:before', (context, next) =>
      handler(context.message, next),
    );
    const entry = { handler, dispose };
    this.preprocessors.set(key, entry);
    return () => {
      if (this.preprocessors.get(key) !== entry) return;
      this.preprocessors.delete(key);
      dispose();
    };
  }

  async assignModel(sessionId: string, model: ModelRef): Promise<void> {
    if (!this.deps.sessionFields.available) {
      throw new Error('assignModel needs the session settings service (@aalis/plugin-session-settings).');
    }
    await this.deps.sessionFields.use.set({
      layer: 'session',
      target: sessionId,
      key: FIELD.llm,
      value: model,
      caller: { via: 'host' },
    });
  }

  /**
   * /stop (plugin-agent.zh.md 「指令」): the running turn's participants and owners may stop it; a turn past its
   * commit point is as good as finished. On a shared engine a session run by another process is asked there.
   */
  async stopAsCommand(sessionId: string, request: StopRequest): Promise<StopAnswer> {
    const running = this.runningTurn(sessionId);
    if (!running) {
      if (!this.owners || this.owners.owns(sessionId)) return 'noTurn';
      return this.owners.signals.askStop(sessionId, request);
    }
    const by = request.by;
    const isParticipant =
      by !== undefined && this.participantsOf(sessionId).some((participant) => sameIdentity(participant, by));
    if (!isParticipant && !request.callerIsOwner) return 'refused';
    return this.abort(sessionId, { turnId: running.turnId, by, reason: request.reason }) ? 'stopped' : 'noTurn';
  }

  /** Whether a turn runs in the session now (for /stop). */
  runningTurn(sessionId: string) {
    return this.channels.get(sessionId)?.running;
  }

  /** The participants of the running turn: originTurnOf over the inputs that entered it (queued ones do not count). */
  participantsOf(sessionId: string): Identity[] {
    const running = this.channels.get(sessionId)?.running;
    if (!running || running.inputs.length === 0) return [];
    const messages = running.inputs.map((input) => input.message);
    const origin = this.deps.authority.available
      ? this.deps.authority.use.originTurnOf(messages)
      : originTurnOf({ inputs: messages });
    return origin.participants;
  }

  private channel(sessionId: string): SessionChannel {
    let channel = this.channels.get(sessionId);
    if (!channel) {
      channel = new SessionChannel(sessionId, {
        archiveReleased: async (messages) => {
          if (!this.deps.messageArchive.available) return;
          for (const message of messages) {
            if (message.triggerType === 'idle') continue;
            await this.deps.messageArchive.use
              .archiveIncoming(message)
              .catch((error: unknown) =>
                this.deps.log.warn('archiving a released input failed', { error: String(error) }),
              );
          }
        },
        queueChanged: (id, waiting, dispositions) =>
          this.deps.events.emit('agent:queue', { sessionId: id, waiting, dispositions }),
        log: ({ kind, message, turnId }) => {
          if (this.deps.log.enabled('debug'))
            this.deps.log.debug(routeLine({ label: ROUTE_LABELS[kind], message, turnId }));
        },
      });
      this.channels.set(sessionId, channel);
    }
    return channel;
  }

  /**
   * The session's channel once neither it nor every session is held. Fetched again after each wait: an idle
   * channel may have been let go meanwhile, and a fresh one must not run beside it.
   */
  private async unheldChannel(sessionId: string): Promise<SessionChannel> {
    for (;;) {
      while (this.globalHolds > 0) await this.globalRelease;
      const channel = this.channel(sessionId);
      if (!channel.held) return channel;
      await channel.whenUnheld();
    }
  }

  /** An idle channel holds nothing: drop it, so the map only keeps sessions with a turn, a queue or a hold. */
  private releaseIfIdle(channel: SessionChannel): void {
    if (!channel.idle) return;
    if (this.channels.get(channel.sessionId) === channel) this.channels.delete(channel.sessionId);
    this.owners?.idle(channel.sessionId);
  }

  private holdAll(): void {
    if (this.globalHolds === 0) {
      this.globalRelease = new Promise((resolve) => {
        this.releaseGlobal = resolve;
      });
    }
    this.globalHolds++;
  }

  private releaseAll(): void {
    this.globalHolds--;
    if (this.globalHolds === 0) this.releaseGlobal?.();
  }
}
