// The turn log lines (plugin-agent.zh.md 「新消息怎么处理」 日志): where an input went (→ 待插入|排队|放掉|开轮|插入
// #n session=… turn=…) and the turn-end line, built from their fields so the spacing is the same with or without
// an arrival number (inputs that did not come through the gateway have none); never bodies or names.
import type { IncomingMessage } from '@aalis/schema-message';

export function arrivalOf(message: IncomingMessage): string {
  return message.arrival === undefined ? '' : `#${message.arrival}`;
}

/** One line from its fields: empty fields are left out, the rest joined by single spaces. */
function line(fields: readonly string[]): string {
  return fields.filter((field) => field !== '').join(' ');
}

/** `→ <label> [#n] session=… [turn=…]` */
export function routeLine({
  label,
  message,
  sessionId = message.sessionId,
  turnId,
}: {
  label: string;
  message: IncomingMessage;
  sessionId?: string;
  turnId?: string;
}): string {
  return line(['→', label, arrivalOf(message), `session=${sessionId}`, turnId === undefined ? '' : `turn=${turnId}`]);
}

/** `回合结束 turn=… session=… 结局=… [原因=…] 用时=…ms 输入 #… #…`; 原因 only on a stopped turn. */
export function turnEndLine({
  turnId,
  sessionId,
  outcome,
  stopReason,
  elapsedMs,
  inputs,
}: {
  turnId: string;
  sessionId: string;
  outcome: string;
  /** Set only for a stopped turn: the reason given to abort, or what stopped it. */
  stopReason: string | undefined;
  elapsedMs: number;
  inputs: readonly IncomingMessage[];
}): string {
  return line([
    '回合结束',
    `turn=${turnId}`,
    `session=${sessionId}`,
    `结局=${outcome}`,
    stopReason === undefined ? '' : `原因=${stopReason}`,
    `用时=${elapsedMs}ms`,
    '输入',
    ...inputs.map(arrivalOf),
  ]);
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
