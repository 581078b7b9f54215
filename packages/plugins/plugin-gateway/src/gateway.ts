// The gateway service: numbers each arrival, runs the inbound phases as hook chains with their default actions,
// and sends outbound messages through the outbound:dispatch chain.
import type { AgentService } from '@aalis/api-agent';
import type { CommandsService } from '@aalis/api-commands';
import {
  type GatewayService,
  gatewayErrors,
  INBOUND_PHASES,
  type InboundContext,
  type InboundOutcome,
  type InboundPhase,
  type InboundReport,
  type OutboundReport,
  type TriggerJudgement,
} from '@aalis/api-gateway';
import type { HooksService } from '@aalis/api-hooks';
import type { SessionManagerService } from '@aalis/api-session-manager';
import type { SessionFieldsService } from '@aalis/api-session-settings';
import { atMost, type Events, type Logger, setBounded } from '@aalis/core';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';
import { JOIN_TRIGGER, judgeTrigger } from './judge-trigger.js';
import { type TriggerDefaults, triggerRulesFor } from './trigger-fields.js';
import { assertIncoming, assertOutgoing } from './validate-messages.js';

let lastArrival = 0;

/** The next arrival number: increasing for the whole process (survives a gateway re-activation). */
export function nextArrival(): number {
  lastArrival += 1;
  return lastArrival;
}

export interface GatewayOptions {
  hooks: HooksService;
  events: Pick<Events, 'emitAsync'>;
  logger: Logger;
  commands(): CommandsService | undefined;
  agent(): AgentService | undefined;
  sessionManager(): SessionManagerService | undefined;
  sessionFields?(): SessionFieldsService | undefined;
  trigger: TriggerDefaults;
  /** For tests: the chance source of joining chatter (default Math.random). */
  random?: () => number;
}

/** The longest an input waits for the chat's earlier input to enter dispatch before it goes on regardless. */
const DISPATCH_ORDER_WAIT_MS = 10_000;

/** Rooms whose last join is remembered; the oldest is forgotten past this (every count bounded). */
const MAX_JOIN_ROOMS = 10_000;

type DefaultAction = (context: InboundContext) => Promise<void>;

export class Gateway implements GatewayService {
  private readonly defaults: Record<InboundPhase, DefaultAction | undefined>;
  private warnedNoAgent = false;
  /** When she last joined unaddressed chatter, per session (insertion order = oldest first). */
  private readonly lastJoins = new Map<string, number>();
  /**
   * Per session, the last arrival's way into dispatch: resolved once it has entered dispatch (or left before it). A
   * later arrival of the session enters dispatch only after it, so the inputs of a chat reach the agent in arrival
   * order even when an earlier one spends longer in the phases (an unaddressed room message reads the trigger
   * settings; an addressed one does not).
   */
  private readonly entered = new Map<string, Promise<void>>();

  constructor(private readonly options: GatewayOptions) {
    this.defaults = {
      'inbound:command': (context) => this.runCommand(context),
      'inbound:flow': undefined,
      'inbound:trigger': (context) => this.judge(context),
      'inbound:dispatch': (context) => this.dispatch(context),
    };
  }

  async receive(message: IncomingMessage): Promise<InboundReport> {
    assertIncoming(message);
    const arrival = nextArrival();
    message.arrival = arrival;
    message.timestamp ??= Date.now();
    let judged: Promise<TriggerJudgement> | undefined;
    const context: InboundContext = {
      message,
      judgeTrigger: () => {
        judged ??= this.judgeOnce(context);
        return judged;
      },
    };
    let phase: InboundPhase = INBOUND_PHASES[0];
    const report = (outcome: InboundOutcome): InboundReport => {
      this.options.logger.debug(`inbound #${arrival} session=${context.message.sessionId} → ${outcome} (${phase})`);
      return { arrival, outcome, phase };
    };
    const sessionId = message.sessionId;
    const before = this.entered.get(sessionId);
    let enter!: () => void;
    const mine = new Promise<void>((resolve) => {
      enter = resolve;
    });
    this.entered.set(sessionId, mine);
    try {
      await this.options.sessionManager()?.settled(message.sessionId);
      for (phase of INBOUND_PHASES) {
        if (phase === 'inbound:dispatch') {
          // Bounded: an earlier input stuck in a phase (a hook that never returns) holds the chat for a while only.
          if (before) await atMost(before, DISPATCH_ORDER_WAIT_MS);
          enter();
        }
        const { reachedCentre } = await this.options.hooks.run(phase, context, this.defaults[phase]);
        if (!reachedCentre) return report('dropped');
        if (context.stop) return report(context.stop);
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const failure = gatewayErrors.AALIS_GATEWAY_PHASE_FAILED({
        arrival,
        sessionId: message.sessionId,
        phase,
        reason,
      });
      this.options.logger.error(failure.message, { code: failure.code });
      return report('failed');
    } finally {
      enter();
      if (this.entered.get(sessionId) === mine) this.entered.delete(sessionId);
    }
    return report('dispatched');
  }

  async dispatchOutbound(message: OutgoingMessage): Promise<OutboundReport> {
    assertOutgoing(message);
    let emitted = false;
    await this.options.hooks.run('outbound:dispatch', { message }, async (context) => {
      await this.options.events.emitAsync('outbound:message', context.message);
      emitted = true;
    });
    return { emitted };
  }

  private async runCommand(context: InboundContext): Promise<void> {
    const commands = this.options.commands();
    const { message } = context;
    // Only people run commands: injected inputs and host notices whose text starts with '/' are not commands.
    if (!commands || message.source !== undefined || message.hostNotice !== undefined) return;
    if (!commands.isCommand(message.content)) return;
    const result = await commands.execute(message);
    if (!result.handled) return;
    context.stop = 'command';
    if (result.reply === undefined || result.reply === '') return;
    const reply: OutgoingMessage = {
      sessionId: message.sessionId,
      platform: message.platform,
      content: result.reply,
      kind: 'system',
    };
    if (message.venue !== undefined) reply.venue = message.venue;
    if (message.messageId !== undefined) reply.replyTo = message.messageId;
    await this.dispatchOutbound(reply);
  }

  private async judge(context: InboundContext): Promise<void> {
    if ((await context.judgeTrigger()) === 'drop') context.stop = 'dropped';
  }

  /** The trigger rule for one input (see judge-trigger.ts), with the policy of its session's settings layers. */
  private async judgeOnce(context: InboundContext): Promise<TriggerJudgement> {
    const { message } = context;
    if (message.source !== undefined) return 'keep';
    if (message.triggerType !== undefined && message.triggerType !== 'poke') return 'keep';
    const multiParty = await this.isMultiParty(message.sessionId);
    const rules = await triggerRulesFor(
      this.options.sessionFields?.(),
      { sessionId: message.sessionId, platform: message.platform, ...(message.venue ? { venue: message.venue } : {}) },
      this.options.trigger,
    );
    const now = Date.now();
    const verdict = judgeTrigger({
      message,
      multiParty,
      rules,
      lastJoinAt: this.lastJoins.get(message.sessionId),
      now,
      ...(this.options.random ? { random: this.options.random } : {}),
    });
    if (verdict.action === 'set') {
      message.triggerType = verdict.triggerType;
      if (verdict.triggerType === JOIN_TRIGGER) setBounded(this.lastJoins, message.sessionId, now, MAX_JOIN_ROOMS);
    }
    return verdict.action;
  }

  private async isMultiParty(sessionId: string): Promise<boolean> {
    const sessions = this.options.sessionManager();
    if (!sessions) return false;
    const root = await sessions.rootOf(sessionId);
    return root?.originChat?.multiParty === true;
  }

  private async dispatch(context: InboundContext): Promise<void> {
    const agent = this.options.agent();
    if (!agent) {
      if (!this.warnedNoAgent) {
        this.warnedNoAgent = true;
        this.options.logger.warn('no agent service: inbound messages are not answered until one is enabled');
      }
      context.stop = 'no-agent';
      return;
    }
    await agent.handleMessage(context.message);
  }
}
