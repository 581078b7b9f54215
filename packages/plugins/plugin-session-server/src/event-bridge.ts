// Turns the host's events into the protocol's session events, in the order the host emitted them: turns
// (agent:turn:before/after), archived inputs and stored replies (memory:appended), streamed deltas and tool-call
// progress (outbound:stream), tool cards (tool:execute), sent messages (outbound:message), the waiting list
// (agent:queue), usage after every model call (token:usage with llm:usage's cached tokens), delivery failures.
// What the running turn streamed is tracked by the live session from the events themselves (LiveSession.track).
import type { AgentQueueEvent, TokenUsageEvent } from '@aalis/api-agent';
import { type DeliveryFailure, deliveryFailureNote, type OutboundStreamFragment } from '@aalis/api-gateway';
import type { LlmUsageEvent } from '@aalis/api-llm';
import type { ToolExecuteEvent } from '@aalis/api-tools';
import { type TextRef, translate } from '@aalis/core';
import {
  type IncomingMessage,
  WellKnownMetadataKeys as Keys,
  type Message,
  type OutgoingMessage,
  type TurnOutcome,
  type TurnRecord,
} from '@aalis/schema-message';
import { queueChange, type UsageEntry, type WaitingInput } from '@aalis/session-client';
import { lastCallOf, rememberLastCall } from './last-calls.js';
import type { LiveSession } from './live-session.js';
import { noticeTexts } from './notice-texts.js';
import { timelineInput } from './timeline-builder.js';

export interface BridgeContext {
  live(sessionId: string): LiveSession;
  translate(text: string | TextRef): string;
  /** Whether a session is a room (known kinds are cached by the server). */
  isRoom(sessionId: string): boolean;
  rawText(messageId: string): string | undefined;
  clientIdOf(messageId: string): string | undefined;
  attachmentUrl(sessionId: string, messageId: string, index: number): string;
  recordDuration(callId: string, durationMs: number): void;
}

/** Latest llm:usage per session, paired with the token:usage that follows the same call. */
const pendingCalls = new WeakMap<BridgeContext, Map<string, LlmUsageEvent>>();

export function onTurnStarted(
  context: BridgeContext,
  sessionId: string,
  turnId: string,
  opener?: IncomingMessage,
): void {
  const live = context.live(sessionId);
  const at = Date.now();
  live.supersede(turnId);
  live.startTurn(turnId, opener?.source, at);
  live.emit({ type: 'turn.started', turnId, at });
}

export function onTurnEnded(
  context: BridgeContext,
  {
    sessionId,
    turnId,
    outcome,
    error,
  }: { sessionId: string; turnId: string; outcome: TurnOutcome; error?: string | TextRef },
): void {
  const live = context.live(sessionId);
  const turn = live.turn?.turnId === turnId ? live.turn : undefined;
  const record = turn?.record;
  const unsentSegments: number[] = [];
  if (turn && context.isRoom(sessionId)) {
    for (const segment of [...turn.segmentsWithText].sort((a, b) => a - b)) {
      if (!(outcome === 'replied' && segment === turn.finalSegment)) unsentSegments.push(segment);
    }
  }
  const stoppedBy = record?.stoppedBy;
  live.emit({
    type: 'turn.ended',
    turnId,
    outcome,
    ...(error !== undefined ? { error: context.translate(error) } : {}),
    // A coded error in both languages, as usage labels: each page shows its own.
    ...(error !== undefined && typeof error !== 'string'
      ? { errors: { 'zh-CN': translate(error, 'zh-CN'), en: translate(error, 'en') } }
      : {}),
    ...(stoppedBy ? { stoppedBy: { platform: stoppedBy.platform, userId: stoppedBy.userId } } : {}),
    unsentSegments,
  });
}

export function onAppended(context: BridgeContext, sessionId: string, messages: readonly Message[]): void {
  const live = context.live(sessionId);
  live.archiveVersion += 1;
  for (const message of messages) {
    const metadata = message.metadata ?? {};
    const turnId = typeof metadata[Keys.TurnId] === 'string' ? (metadata[Keys.TurnId] as string) : undefined;
    const record = metadata[Keys.TurnRecord] as TurnRecord | undefined;
    if (record && live.turn && live.turn.turnId === turnId) live.turn.record = record;
    if (message.role === 'user' && message.kind === undefined) {
      const input = timelineInput(message, {
        rawText: context.rawText,
        clientIdOf: context.clientIdOf,
        attachmentUrl: (id, index) => context.attachmentUrl(sessionId, id, index),
      });
      live.emit({ type: 'input', ...(turnId ? { turnId } : {}), input });
      continue;
    }
    if (message.role === 'assistant' && turnId) live.segmentStored(turnId, record !== undefined);
  }
}

/** A platform could not deliver a message of the session (outbound:failed). */
export function onDeliveryFailed(context: BridgeContext, failure: DeliveryFailure): void {
  const { message } = failure;
  const texts = noticeTexts(deliveryFailureNote(failure));
  context.live(message.sessionId).emit({
    type: 'delivery.failed',
    ...(message.turnId ? { turnId: message.turnId } : {}),
    text: failure.reason,
    ...(texts ? { texts } : {}),
    at: Date.now(),
  });
}

export function onStream(context: BridgeContext, fragment: OutboundStreamFragment): void {
  const live = context.live(fragment.sessionId);
  const turn = live.turn?.turnId === fragment.turnId ? live.turn : undefined;
  const segment = turn?.segment ?? 0;
  if (fragment.reasoningDelta) {
    live.emit({ type: 'reasoning.delta', turnId: fragment.turnId, segment, delta: fragment.reasoningDelta });
  }
  if (fragment.delta) {
    live.emit({ type: 'text.delta', turnId: fragment.turnId, segment, delta: fragment.delta });
  }
  const progress = fragment.toolCallProgress;
  if (progress) {
    live.emit({
      type: 'tool.progress',
      turnId: fragment.turnId,
      segment,
      callId: progress.callId,
      index: progress.index,
      ...(progress.name !== undefined ? { name: progress.name } : {}),
      ...(progress.argumentsDelta !== undefined ? { argumentsDelta: progress.argumentsDelta } : {}),
    });
  }
}

export function onToolExecute(context: BridgeContext, event: ToolExecuteEvent): void {
  const live = context.live(event.sessionId);
  const turn = live.turn?.turnId === event.turnId ? live.turn : undefined;
  const segment = turn?.segment ?? 0;
  if (event.phase === 'start') {
    const args = typeof event.arguments === 'string' ? event.arguments : JSON.stringify(event.arguments ?? {});
    live.emit({
      type: 'tool.started',
      turnId: event.turnId,
      segment,
      callId: event.callId,
      name: event.name,
      arguments: args,
    });
    return;
  }
  context.recordDuration(event.callId, event.durationMs);
  const isError = event.result.isError === true;
  live.emit({
    type: 'tool.ended',
    turnId: event.turnId,
    callId: event.callId,
    name: event.name,
    result: event.result.content,
    isError,
    durationMs: event.durationMs,
  });
}

export function onOutbound(context: BridgeContext, message: OutgoingMessage): void {
  const texts = message.kind === 'reply' ? undefined : noticeTexts(message.text);
  context.live(message.sessionId).emit({
    type: 'message',
    ...(message.turnId ? { turnId: message.turnId } : {}),
    kind: message.kind,
    text: message.content,
    // A notice's catalogue text, in each language: the page shows its own (terminals and platforms got `content`).
    ...(texts ? { texts } : {}),
    // A command's answer names the command's message (the page shows it under the command, not again).
    ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
  });
}

/** Keys of waiting inputs without a messageId: the agent keeps the same object while an input waits. */
const waitingKeys = new WeakMap<IncomingMessage, string>();
let waitingKeyCounter = 0;

function waitingKey(message: IncomingMessage): string {
  if (message.messageId !== undefined) return message.messageId;
  let key = waitingKeys.get(message);
  if (key === undefined) {
    waitingKeyCounter = (waitingKeyCounter + 1) % Number.MAX_SAFE_INTEGER;
    key = `w${Date.now().toString(36)}-${waitingKeyCounter.toString(36)}`;
    waitingKeys.set(message, key);
  }
  return key;
}

/** The waiting list changed: its changes go out (queue-changes.ts in the session client), never the whole list. */
export function onQueue(context: BridgeContext, event: AgentQueueEvent): void {
  const waiting = event.waiting.map((message, index): WaitingInput => {
    // The agent says which inputs wait to join the running turn and which are queued for a later one.
    const joins = event.dispositions[index] === 'join';
    return {
      key: waitingKey(message),
      ...(message.messageId !== undefined ? { messageId: message.messageId } : {}),
      text: (message.messageId !== undefined ? context.rawText(message.messageId) : undefined) ?? message.content,
      sender: {
        platform: message.platform,
        ...(message.sender.userId !== undefined ? { userId: message.sender.userId } : {}),
        ...(message.sender.displayName !== undefined ? { displayName: message.sender.displayName } : {}),
      },
      ...(message.source !== undefined ? { source: message.source } : {}),
      at: message.timestamp ?? Date.now(),
      disposition: joins ? 'join' : 'queue',
    };
  });
  const live = context.live(event.sessionId);
  const change = queueChange(live.waiting, waiting);
  if (change) live.emit(change);
}

export function onLlmUsage(context: BridgeContext, event: LlmUsageEvent): void {
  let calls = pendingCalls.get(context);
  if (!calls) {
    calls = new Map();
    pendingCalls.set(context, calls);
  }
  calls.set(event.sessionId, event);
}

export function onTokenUsage(context: BridgeContext, event: TokenUsageEvent): void {
  const call = event.turnId !== undefined ? pendingCalls.get(context)?.get(event.sessionId) : undefined;
  if (call) pendingCalls.get(context)?.delete(event.sessionId);
  const usage: UsageEntry = {
    ...(event.turnId !== undefined ? { turnId: event.turnId } : {}),
    used: event.used,
    contextWindow: event.contextWindow,
    usageRatio: event.usageRatio,
    maxTokens: event.maxTokens,
    tokenBudget: event.tokenBudget,
    trimmed: event.trimmed,
    historyMessages: event.historyMessages,
    historyLimit: event.historyLimit,
    // Each row in both languages the pages are written in: one frame serves every subscriber, whatever its page's.
    parts: event.parts.map((part) => ({
      label: context.translate(part.label),
      labels: { 'zh-CN': translate(part.label, 'zh-CN'), en: translate(part.label, 'en') },
      tokens: part.tokens,
      ...(part.injectors ? { injectors: { ...part.injectors } } : {}),
    })),
    // `used` is the provider's prompt tokens when this call's llm:usage reported them; the rows are estimates.
    measured: call !== undefined && call.promptTokens === event.used,
    partsTotal: event.parts.reduce((sum, part) => sum + part.tokens, 0),
    ...(call?.cachedPromptTokens !== undefined ? { cachedPromptTokens: call.cachedPromptTokens } : {}),
    ...(call ? { completionTokens: call.completionTokens, model: call.model } : {}),
  };
  const live = context.live(event.sessionId);
  if (call && event.turnId !== undefined) {
    rememberLastCall(live, {
      turnId: event.turnId,
      at: Date.now(),
      promptTokens: call.promptTokens,
      completionTokens: call.completionTokens,
      ...(call.cachedPromptTokens !== undefined ? { cachedPromptTokens: call.cachedPromptTokens } : {}),
      model: call.model,
    });
  }
  // The snapshot (after subscribe, compaction) carries the last real call, so a reloaded page shows real figures.
  const lastCall = event.turnId === undefined ? lastCallOf(live) : undefined;
  if (lastCall) usage.lastCall = lastCall;
  live.emit({ type: 'usage', usage });
}
