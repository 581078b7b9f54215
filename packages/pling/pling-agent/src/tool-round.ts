// One reply's tool calls, run in order: each announced when it starts, blocked by a hook or run, and given a result
// in the history whatever happens (cancelled, failed, a hook's block), so the history stays a valid sequence.
import type { Message } from '@aalis/schema-message';
import type { Clock } from './clock.js';
import type { ResolvedAgentConfig } from './config.js';
import { throwIfAborted } from './conversation-state.js';
import type { HookRegistry } from './hooks.js';
import type { SessionEventBody } from './session-events.js';
import type { Telemetry } from './telemetry.js';
import { TEXTS } from './texts.js';
import { type AgentTool, cancelledResult, runToolCall } from './tool.js';

/** What a tool round needs of its session, bound to the conversation state the run belongs to. */
export interface ToolRoundContext {
  sessionId: string;
  config: ResolvedAgentConfig;
  hooks: HookRegistry;
  telemetry: Telemetry;
  clock: Clock;
  emit: (body: SessionEventBody) => void;
  /** Stores a call's result in the history (redacted). */
  pushResult: (callId: string, name: string, result: unknown) => void;
}

export async function runToolRound({
  context,
  assistant,
  turn,
  signal,
  tools,
  alreadyAnnounced,
}: {
  context: ToolRoundContext;
  assistant: Message;
  turn: number;
  signal: AbortSignal;
  tools: ReadonlyMap<string, AgentTool>;
  /** Calls whose `tool-call` event is already in the list (a restored run asking again for a confirmation). */
  alreadyAnnounced?: ReadonlySet<string>;
}): Promise<void> {
  const { hooks, telemetry, clock, config, sessionId, emit, pushResult } = context;
  const errors = TEXTS[config.locale].errors;
  const calls = assistant.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    const base = { callId: call.id, toolName: call.function.name, turn };
    if (index > 0 && config.minActionIntervalMs > 0 && !signal.aborted) {
      await clock.sleep(config.minActionIntervalMs, signal).catch(() => undefined);
    }
    if (signal.aborted) {
      pushResult(call.id, call.function.name, cancelledResult(errors));
      continue;
    }
    let announced = false;
    const outcome = await runToolCall({
      call,
      tools,
      hooks,
      turn,
      sessionId,
      signal,
      clock,
      errors,
      onExecuted: (info) => telemetry.recordToolCall(info),
      // The call is announced when it starts, so views show it running while it waits (e.g. for a confirmation).
      onStart: (id) => {
        announced = true;
        if (!alreadyAnnounced?.has(call.id)) emit({ type: 'tool-call', ...base, id });
      },
    }).catch((error: unknown) => {
      // Nothing in runToolCall should throw; if something does, the call still gets a result.
      const message = error instanceof Error ? error.message : String(error);
      const result = { error: { code: 'TOOL_FAILED', message } };
      return { kind: 'done' as const, id: call.function.name, ran: false, result };
    });
    if (outcome.kind === 'blocked') {
      emit({ type: 'blocked', ...base, id: outcome.id, code: 'HOOK_BLOCKED', reason: outcome.reason });
    } else {
      if (!announced) emit({ type: 'tool-call', ...base, id: outcome.id });
      const result = outcome.result;
      const code = 'error' in result ? result.error.code : undefined;
      emit({ type: 'tool-result', ...base, id: outcome.id, ok: code === undefined, ...(code && { code }) });
    }
    pushResult(call.id, call.function.name, outcome.result);
  }
  throwIfAborted(signal);
}
