// The gateway contract: every inbound message passes the phases command → flow → trigger → dispatch (hook
// chains), numbered by arrival; every outbound message passes the outbound:dispatch chain, whose default action
// emits outbound:message for the platform plugins.
import '@aalis/api-hooks';
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { IncomingMessage, OutgoingMessage } from '@aalis/schema-message';

/** The inbound phases, in order. Each is a hook chain; its default action runs at the centre. */
export const INBOUND_PHASES = ['inbound:command', 'inbound:flow', 'inbound:trigger', 'inbound:dispatch'] as const;
export type InboundPhase = (typeof INBOUND_PHASES)[number];

/**
 * The context of every inbound phase. `message` is the same object through all phases (middlewares may change
 * it; `arrival` is already set). A middleware that does not call next() drops the message at that phase.
 */
export interface InboundContext {
  message: IncomingMessage;
  /**
   * Set by a default action (or a middleware) to end the pipeline after this phase although its chain reached
   * the centre — the command phase sets 'command' when a command was handled.
   */
  stop?: InboundOutcome;
  /**
   * Runs the trigger rule now (once per input; later calls return the same verdict): sets `message.triggerType`
   * as the trigger phase would, so the flow phase can tell an input that addresses her (cooldowns and rate limits
   * count only those) before the trigger phase. The trigger phase's default action applies the same verdict.
   */
  judgeTrigger(): Promise<TriggerJudgement>;
}

/** What the trigger rule made of an input: kept as it came, given a triggerType, or to be dropped unread. */
export type TriggerJudgement = 'keep' | 'set' | 'drop';

export interface OutboundContext {
  /** Middlewares may rewrite it; not calling next() withholds it (no outbound:message). */
  message: OutgoingMessage;
}

/**
 * How an input left the pipeline: `command` (a command handled it; its reply, if any, went out), `dropped` (a
 * middleware did not call next, or the trigger phase judged it not for her), `dispatched` (handed to the agent,
 * and settled there), `no-agent` (reached dispatch with no agent present), `failed` (a phase threw; logged).
 */
export type InboundOutcome = 'command' | 'dropped' | 'dispatched' | 'no-agent' | 'failed';

export interface InboundReport {
  arrival: number;
  outcome: InboundOutcome;
  /** The phase where it left the pipeline. */
  phase: InboundPhase;
}

export interface OutboundReport {
  /** Whether outbound:message was emitted (false when a middleware withheld it). */
  emitted: boolean;
}

/** A streamed fragment of a turn in progress (emitted by the agent; platforms that can stream show it). */
export interface OutboundStreamFragment {
  sessionId: string;
  turnId: string;
  platform?: string;
  /** Reply text appended. */
  delta?: string;
  /** Reasoning text appended. */
  reasoningDelta?: string;
  /** The model is writing a tool call: its callId (the one the call will execute with), index, name, arguments. */
  toolCallProgress?: { callId: string; index: number; name?: string; argumentsDelta?: string };
  /** The stream of this turn ended (also sent when a turn is dropped before it runs). */
  done?: boolean;
}

/**
 * A platform could not deliver an outbound message (`outbound:failed`). Platform adapters emit it with the
 * message as they received it, so `message.turnId` says which turn's reply did not arrive (plugin-agent.zh.md
 * 「发送」: 平台适配器记回复的投递失败时带上它). The message archive records it in the session's history.
 */
export interface DeliveryFailure {
  message: OutgoingMessage;
  /** The platform that failed to deliver it. */
  platform: string;
  /** The adapter's error code (e.g. AALIS_ONEBOT_API_FAILED). */
  code: string;
  /** One sentence for people and the model: what went wrong; never a secret. */
  reason: string;
}

export interface GatewayService {
  /**
   * Takes one inbound message: assigns `message.arrival` (per process, increasing) and `timestamp` when absent;
   * waits while the session is being deleted (sessionManager.settled, when present), then runs the phases in
   * order. Resolves when the input has settled (for a dispatched input: when agent.handleMessage resolved). Invalid input
   * (no sessionId, platform, sender or content) rejects with AALIS_GATEWAY_MESSAGE_INVALID; a failing phase is
   * logged and reported as `failed`, never thrown.
   */
  receive(message: IncomingMessage): Promise<InboundReport>;
  /** Sends one outbound message through the outbound:dispatch chain; its default action emits outbound:message. */
  dispatchOutbound(message: OutgoingMessage): Promise<OutboundReport>;
}

declare module '@aalis/api-hooks' {
  interface HookContextMap {
    /** Default action: runs slash commands through the commands service; a handled one is answered and stops. */
    'inbound:command': InboundContext;
    /** Cooldowns, rate limits, mutes…: no default action. */
    'inbound:flow': InboundContext;
    /** Default action: sets message.triggerType when absent (see plugin-gateway's trigger rules). */
    'inbound:trigger': InboundContext;
    /** Default action: agent.handleMessage(message). */
    'inbound:dispatch': InboundContext;
    /** Default action: emits outbound:message. */
    'outbound:dispatch': OutboundContext;
  }
}

declare module '@aalis/core' {
  interface EventMap {
    /** A message to deliver. Platform plugins subscribe and deliver those of their platform. */
    'outbound:message': OutgoingMessage;
    /** A streamed fragment of a turn in progress. */
    'outbound:stream': OutboundStreamFragment;
    /** A platform could not deliver an outbound message. */
    'outbound:failed': DeliveryFailure;
  }
}

export const gateway: ServiceDescriptor<GatewayService> = defineService<GatewayService>('gateway');
