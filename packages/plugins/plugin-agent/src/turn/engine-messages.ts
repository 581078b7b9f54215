// The model-facing messages the turn engine writes itself: the system prompt, the volatile context, instruction
// blocks, the queued-batch header, the focus block, and the stop marker (plugin-agent.zh.md 「核心流程」,
// 「指令类回合」, 「新消息怎么处理」, 「保存」).
import { formatArchiveTime, speakerOf } from '@aalis/api-message-archive';
import { type I18n, textRef } from '@aalis/core';
import { type Identity, type IncomingMessage, type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { structuredOutputInstruction } from './structured-output.js';
import type { SessionFacts, TurnKind } from './turn-state.js';

export const INJECTOR = {
  systemPrompt: 'system-prompt',
  volatileContext: 'volatile-context',
  queueHeader: 'queue-header',
  focus: 'focus',
  delegation: 'cross-session-delegation',
  hostNotice: 'host-notice',
  idle: 'idle-prompt',
  iterationLimit: 'tool-iteration-limit',
  formatCheck: 'format-check',
  /** The continuation prompt the trim inserts after a deep cut (上下文裁剪算法 压缩后延续提示). */
  continuation: 'continuation-prompt',
} as const;

const OWN_INJECTORS: ReadonlySet<string> = new Set(Object.values(INJECTOR));

/**
 * The global key `<plugin instance id>/<local id>` of a block's injector, for breakdown.injectors and parts. The
 * agent's own blocks carry their local id in metadata.injector (the document names them so: cross-session-delegation,
 * host-notice, idle-prompt); contribution blocks already carry their global key.
 */
export function injectorKeyOf(instanceId: string, injector: string): string {
  if (!OWN_INJECTORS.has(injector)) return injector;
  // One string per (instance, own injector), not a new one per message per call: the usage breakdown looks each key up
  // in its injectors record, and a string made anew must be hashed anew.
  let keys = ownInjectorKeys.get(instanceId);
  if (keys === undefined) {
    keys = new Map();
    ownInjectorKeys.set(instanceId, keys);
  }
  let key = keys.get(injector);
  if (key === undefined) {
    key = `${instanceId}/${injector}`;
    keys.set(injector, key);
  }
  return key;
}

/** Instance id → own injector → its global key (a few plugin instances × the INJECTOR ids). */
const ownInjectorKeys = new Map<string, Map<string, string>>();

export function systemMessage(content: string, injector?: string): Message {
  return injector === undefined
    ? { role: 'system', content }
    : { role: 'system', content, metadata: { [WellKnownMetadataKeys.Injector]: injector } };
}

export function buildSystemPrompt({
  i18n,
  persona,
  systemPrompt,
  structuredOutput,
}: {
  i18n: I18n;
  persona?: string;
  systemPrompt: string;
  structuredOutput?: Record<string, unknown>;
}): string {
  const parts = [persona, systemPrompt].filter((part): part is string => part !== undefined && part.trim() !== '');
  parts.push(i18n.t(textRef('agent.inputConvention')));
  if (structuredOutput) parts.push(structuredOutputInstruction({ i18n, schema: structuredOutput }));
  return parts.join('\n\n');
}

export function turnKindOf(message: IncomingMessage): TurnKind {
  if (message.hostNotice) return 'host-notice';
  if (message.triggerType === 'proactive') return 'delegation';
  if (message.triggerType === 'idle') return 'idle';
  return 'conversation';
}

export function isInstructionTurn(kind: TurnKind): boolean {
  return kind !== 'conversation';
}

/** The instruction block of a delegation, host-notice or idle turn (`untrusted` only in this turn). */
export function instructionBlock({
  i18n,
  message,
  kind,
  time,
  timeZone,
}: {
  i18n: I18n;
  message: IncomingMessage;
  kind: Exclude<TurnKind, 'conversation'>;
  time: number;
  timeZone: string;
}): Message {
  if (kind === 'delegation') {
    return systemMessage(i18n.t(textRef('agent.delegation', { content: message.content })), INJECTOR.delegation);
  }
  if (kind === 'host-notice') {
    const untrusted = message.hostNotice?.untrusted;
    const body = untrusted ? `${message.content}\n\n${untrusted}` : message.content;
    return systemMessage(i18n.t(textRef('agent.hostNotice', { content: body })), INJECTOR.hostNotice);
  }
  // 「(时间) <提示>」: the time inside the parentheses, without the archive annotation's own brackets.
  const stamp = formatArchiveTime({ time, timeZone, locale: i18n.locale }).replace(/^\[(.*)\]$/, '$1');
  return systemMessage(i18n.t(textRef('agent.idlePrompt', { time: stamp, prompt: message.content })), INJECTOR.idle);
}

export function volatileContext({
  i18n,
  platform,
  facts,
  time,
  timeZone,
}: {
  i18n: I18n;
  platform: string;
  facts: SessionFacts;
  time: number;
  timeZone: string;
}): Message {
  const kindKey = facts.child
    ? 'agent.sessionKind.child'
    : facts.multiParty
      ? 'agent.sessionKind.multiParty'
      : facts.kind === 'room'
        ? 'agent.sessionKind.room'
        : 'agent.sessionKind.direct';
  const text = i18n.t(
    textRef('agent.volatileContext', {
      time: formatArchiveTime({ time, timeZone, locale: i18n.locale }),
      platform,
      kind: i18n.t(textRef(kindKey)),
    }),
  );
  return systemMessage(text, INJECTOR.volatileContext);
}

export function queueHeader({ i18n, allUnaddressed }: { i18n: I18n; allUnaddressed: boolean }): Message {
  const header = i18n.t(textRef('agent.queue.header'));
  const text = allUnaddressed ? `${header}\n${i18n.t(textRef('agent.queue.headerUnaddressed'))}` : header;
  return systemMessage(text, INJECTOR.queueHeader);
}

export function focusBlock({
  i18n,
  addressed,
  timeZone,
}: {
  i18n: I18n;
  addressed: readonly IncomingMessage[];
  timeZone: string;
}): Message {
  const lines = addressed
    .map((message) => {
      const time = formatArchiveTime({ time: message.timestamp ?? Date.now(), timeZone, locale: i18n.locale });
      return `- ${time} ${message.actor?.userId ?? message.sender.userId ?? ''}`.trimEnd();
    })
    .join('\n');
  return systemMessage(i18n.t(textRef('agent.focus', { lines })), INJECTOR.focus);
}

/** The stop marker's text: who stopped it, named by the sender-prefix rule (none in the owner's own session). */
export function stopMarkerText({
  i18n,
  by,
  facts,
  platform,
  isOwner,
  ownerAccountOn,
}: {
  i18n: I18n;
  by: Identity | undefined;
  facts: SessionFacts;
  platform: string;
  isOwner: boolean;
  ownerAccountOn?: (platform: string) => string | undefined;
}): string {
  const who = by
    ? speakerOf({
        identity: by,
        session: { kind: facts.kind, multiParty: facts.multiParty, platform },
        isOwner,
        ownerAccountOn,
        locale: i18n.locale,
      })
    : undefined;
  return who ? i18n.t(textRef('agent.stopMarker.by', { who })) : i18n.t(textRef('agent.stopMarker'));
}
