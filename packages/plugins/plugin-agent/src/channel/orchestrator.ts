// The AgentService: hands each input through agent:input:before to its session's placement, runs turns in the async
// context of the opening input's handleMessage, and implements abort, clearing, session deletion and draining
// (api-agent.zh.md 「服务接口」, plugin-agent.zh.md 「新消息怎么处理」, 「会话删除」). Where an input goes — this
// process's channel, or the durable queue its session's owner takes from — is the placement's (input-placement.ts).
import type { AbortOptions, AgentService, ModelRef, PreprocessorFn } from '@aalis/api-agent';
import { originTurnOf, sameIdentity } from '@aalis/api-authority';
import type { Disposer, RegistrationOwner } from '@aalis/core';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import { SessionOwners } from '../cluster/session-owners.js';
import type { StopAnswer, StopRequest } from '../cluster/session-signals.js';
import { routeLine } from '../log-format.js';
import { runTurn } from '../turn/turn-runner.js';
import { FIELD } from '../turn/turn-settings.js';
import { usageThrottle } from '../turn/usage-emitter.js';
import { type InputPlacement, LocalPlacement, type LocalTurns } from './input-placement.js';
import type { Batch, SessionChannel } from './session-channel.js';
import { generationOf, SessionChannels } from './session-channels.js';

let turnCounter = 0;
export function newTurnId(): string {
  turnCounter = (turnCounter + 1) % 1_000_000;
  return `turn_${Date.now().toString(36)}${turnCounter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export class Orchestrator implements AgentService {
  private readonly preprocessors = new Map<string, { handler: PreprocessorFn; dispose: Disposer }>();
  private readonly channels: SessionChannels;
  /**
   * Where inputs go: with the storage's hand-over queues, to the process holding their session's lease
   * (session-owners.ts, durable on either engine); without storage, into this process's channel.
   */
  readonly placement: InputPlacement;

  constructor(private readonly deps: AgentDeps) {
    this.channels = new SessionChannels(deps, (sessionId) => this.placement.idle(sessionId));
    // What a placement asks back: run a batch that opened a turn here; apply a /stop another process passed on.
    const turns: LocalTurns = {
      run: (channel, batch, generation) => this.run(channel, batch, generation),
      stop: (sessionId, request) => this.stopAsCommand(sessionId, request),
    };
    const queue = deps.handOver();
    const leases = deps.leases();
    this.placement =
      queue && leases ? new SessionOwners(deps, queue, leases, this.channels, turns) : new LocalPlacement(deps, turns);
  }

  async handleMessage(message: IncomingMessage): Promise<void> {
    const deps = this.deps;
    const generation = generationOf(deps, message.sessionId);
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
    const channel = await this.channels.unheld(message.sessionId);
    if (generationOf(deps, message.sessionId) !== generation) {
      // Collected before a deletion started: released, not archived.
      if (deps.log.enabled('debug')) deps.log.debug(routeLine({ label: '放掉', message }));
    } else {
      await this.placement.accept(message, generation, channel);
    }
    this.channels.releaseIfIdle(channel);
  }

  /** Runs a batch that opened a turn here (an input's own delivery, or a placement of handed-over items). */
  private async run(channel: SessionChannel, batch: Batch, generation: number): Promise<void> {
    if (batch.fromQueue && channel.held) {
      // A clearing began between the batch being handed over and its turn beginning: drop it, unarchived.
      channel.dropOpening(batch.inputs);
      return;
    }
    const human = batch.inputs[0]!.message.source === undefined;
    const running = channel.begin(newTurnId(), batch.inputs, human);
    // Across processes the database decides who runs the session's turn (session-lease.ts).
    const hold = await this.placement.holdTurn(channel, running, batch.inputs);
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
    // Another process runs the session (or will): the stop goes to it.
    const elsewhere = this.placement.abortElsewhere(sessionId, options);
    if (elsewhere !== undefined) return elsewhere;
    const channel = this.channels.peek(sessionId);
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
    const channels = this.channels;
    const targets = sessionIds ? sessionIds.map((id) => channels.get(id)) : channels.all();
    if (!sessionIds) channels.holdAll();
    for (const channel of targets) {
      channel.hold();
      channel.stop({ reason: reason ?? 'clearing', release: 'drop' });
    }
    try {
      if (sessionIds) await this.placement.markCleared(sessionIds);
      await Promise.all(targets.map((channel) => channel.running?.settled));
      await clear();
    } finally {
      for (const channel of targets) channel.unhold();
      if (!sessionIds) channels.releaseAll();
      for (const channel of targets) channel.openNext();
      for (const channel of targets) channels.releaseIfIdle(channel);
    }
  }

  /**
   * session:deleted: stop the running turn, drop what waits (unarchived), wait for the turn to settle, and let go
   * of everything kept for the session (usage-log throttle, history copy; its channel once idle).
   */
  async onSessionDeleted(sessionId: string): Promise<void> {
    const channel = this.channels.peek(sessionId);
    if (channel) {
      const running = channel.running;
      channel.stop({ reason: 'session deleted', release: 'drop' });
      await running?.settled;
      this.channels.releaseIfIdle(channel);
    }
    usageThrottle(this.deps).forget(sessionId);
    this.deps.historyCache.forget([sessionId]);
  }

  /**
   * Shutdown: stop every running turn with what waits (archived without turn id), and let them settle. With the
   * hand-over, what waits goes back to the hand-over queue first instead (not released), and the leases are given
   * back once the turns settled, so another process answers it at once (docs/decisions/input-hand-over.md).
   */
  async drain(): Promise<void> {
    // Nothing more is taken from the hand-over queues: what waits there goes to another process.
    this.placement.close();
    const running = this.channels.all().map((channel) => {
      const turn = channel.running;
      channel.stop({ reason: 'shutdown', release: 'archive' });
      return turn?.settled;
    });
    await Promise.all(running);
    await this.placement.handedBack();
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
   * commit point is as good as finished. A session run by another process is asked there.
   */
  async stopAsCommand(sessionId: string, request: StopRequest): Promise<StopAnswer> {
    const running = this.runningTurn(sessionId);
    if (!running) return (await this.placement.stopElsewhere(sessionId, request)) ?? 'noTurn';
    const by = request.by;
    const isParticipant =
      by !== undefined && this.participantsOf(sessionId).some((participant) => sameIdentity(participant, by));
    if (!isParticipant && !request.callerIsOwner) return 'refused';
    return this.abort(sessionId, { turnId: running.turnId, by, reason: request.reason }) ? 'stopped' : 'noTurn';
  }

  /** Whether a turn runs in the session now (for /stop). */
  runningTurn(sessionId: string) {
    return this.channels.peek(sessionId)?.running;
  }

  /** The participants of the running turn: originTurnOf over the inputs that entered it (queued ones do not count). */
  participantsOf(sessionId: string): Identity[] {
    const running = this.channels.peek(sessionId)?.running;
    if (!running || running.inputs.length === 0) return [];
    const messages = running.inputs.map((input) => input.message);
    const origin = this.deps.authority.available
      ? this.deps.authority.use.originTurnOf(messages)
      : originTurnOf({ inputs: messages });
    return origin.participants;
  }
}
