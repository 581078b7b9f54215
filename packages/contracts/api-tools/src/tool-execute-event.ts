// The tool:execute event: one start and one end per tool call, failures included, so a tool card opened at start
// is always closed. The tools service emits the pair for calls it runs; emitToolExecuteFailure emits it for calls
// that fail before reaching the service (malformed arguments, a throwing agent:tool:before middleware).
import type { Events } from '@aalis/core';
import type { ToolResult } from './tool.js';

interface ToolExecuteBase {
  name: string;
  callId: string;
  turnId: string;
  sessionId: string;
}

export interface ToolExecuteStart extends ToolExecuteBase {
  phase: 'start';
  /** The arguments as received (raw text or object). */
  arguments: unknown;
}

export interface ToolExecuteEnd extends ToolExecuteBase {
  phase: 'end';
  result: ToolResult;
  /** From start to end, in milliseconds. */
  durationMs: number;
}

export type ToolExecuteEvent = ToolExecuteStart | ToolExecuteEnd;

declare module '@aalis/core' {
  interface EventMap {
    'tool:execute': ToolExecuteEvent;
  }
}

/** Emits the start/end pair of a call that failed before it could run; durationMs is 0. */
export function emitToolExecuteFailure({
  events,
  call,
  arguments: args,
  result,
}: {
  events: Pick<Events, 'emit'>;
  call: ToolExecuteBase;
  arguments?: unknown;
  result: ToolResult;
}): void {
  const base = { name: call.name, callId: call.callId, turnId: call.turnId, sessionId: call.sessionId };
  events.emit('tool:execute', { phase: 'start', ...base, arguments: args });
  events.emit('tool:execute', {
    phase: 'end',
    ...base,
    result: { ...result, isError: result.isError ?? true },
    durationMs: 0,
  });
}
