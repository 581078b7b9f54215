// Tools as the runtime receives them (the page-action layer will supply them), and running one tool call through
// the hooks: parse arguments, PreToolUse, execute, PostToolUse.
import type { ToolCall } from '@aalis/schema-message';
import { abortable } from './abortable.js';
import type { Clock } from './clock.js';
import { isAbortError, PlingError } from './errors.js';
import type { HookRegistry, ToolResult, ToolUseContext } from './hooks.js';
import type { ErrorTexts } from './texts.js';

export interface ToolExecutionContext {
  signal: AbortSignal;
  /** The turn within the current send(), from 1. */
  turn: number;
  sessionId: string;
  /** The model's call id. */
  callId: string;
}

export interface AgentTool {
  /** The tool name the model sees. */
  name: string;
  /** The action id hooks receive; defaults to the name. */
  id?: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  execute(args: Record<string, unknown>, context: ToolExecutionContext): unknown;
}

/**
 * The tools a runtime offers: a fixed list, or a function read at the start of every turn (a page whose actions
 * come and go). The names of one list must be unique; a later tool with a taken name is ignored.
 */
export type ToolSource = readonly AgentTool[] | (() => readonly AgentTool[]);

export type ToolCallOutcome =
  | { kind: 'done'; id: string; result: ToolResult; ran: boolean }
  | { kind: 'blocked'; id: string; result: ToolResult; reason: string }
  | { kind: 'cancelled'; id: string; result: ToolResult };

export interface RunToolCallOptions {
  call: ToolCall;
  tools: ReadonlyMap<string, AgentTool>;
  hooks: HookRegistry;
  turn: number;
  sessionId: string;
  signal: AbortSignal;
  clock: Pick<Clock, 'now'>;
  /** Error texts in the configured locale, for the messages the model reads. */
  errors: ErrorTexts;
  /** Reports each executed tool for telemetry. */
  onExecuted?: (info: { durationMs: number; ok: boolean }) => void;
  /** Called just before the tool runs (hooks passed), so a dock can show it running while it waits or works. */
  onStart?: (id: string) => void;
}

/**
 * Marks a thrown error as a coded tool outcome: `error[TOOL_ERROR_CODE] = 'CONFIRMATION_REJECTED'` makes the call's
 * result (and its tool-result event) carry that code instead of TOOL_FAILED. The page layer's PageError sets it, so a
 * rejected confirmation or an unavailable action keeps its own code for the model, the events and the dock.
 */
export const TOOL_ERROR_CODE = Symbol.for('@plingjs/agent.toolErrorCode');

export function cancelledResult(errors: ErrorTexts): ToolResult {
  return { error: { code: 'CANCELLED', message: errors.cancelledTool } };
}

export async function runToolCall(options: RunToolCallOptions): Promise<ToolCallOutcome> {
  const { call, tools, hooks, turn, sessionId, signal, clock, errors, onExecuted, onStart } = options;
  const toolName = call.function.name;
  const tool = tools.get(toolName);
  if (!tool) {
    const names = [...tools.keys()].join(', ') || errors.noTools;
    return done(toolName, false, failure('TOOL_NOT_FOUND', errors.toolNotFound(toolName, names)));
  }
  const id = tool.id ?? tool.name;
  const args = parseArguments(call.function.arguments);
  if (!args) {
    return done(id, false, failure('INVALID_ARGUMENTS', errors.invalidArguments(toolName)));
  }
  const context: ToolUseContext = { id, toolName, arguments: args, turn };
  let block: { blocked: true; reason: string } | undefined;
  try {
    block = await abortable(hooks.runPreToolUse(context), signal);
  } catch (error) {
    if (isAbortError(error) || signal.aborted) return { kind: 'cancelled', id, result: cancelledResult(errors) };
    // The call does not run, and it still gets a result: the history stays a valid sequence, the session goes on.
    return done(id, false, failure('HOOK_FAILED', errors.preToolUseFailed(describe(error))));
  }
  if (block) return { kind: 'blocked', id, reason: block.reason, result: failure('HOOK_BLOCKED', block.reason) };
  if (signal.aborted) return { kind: 'cancelled', id, result: cancelledResult(errors) };

  onStart?.(id);
  const started = clock.now();
  let result: ToolResult;
  try {
    // A handler that ignores its signal and never settles does not hold a cancelled run (nor the sends after it).
    result = { result: await abortable(tool.execute(args, { signal, turn, sessionId, callId: call.id }), signal) };
  } catch (error) {
    if (isAbortError(error) || signal.aborted) {
      onExecuted?.({ durationMs: clock.now() - started, ok: false });
      return { kind: 'cancelled', id, result: cancelledResult(errors) };
    }
    result = thrownFailure(error);
  }
  onExecuted?.({ durationMs: clock.now() - started, ok: !('error' in result) });
  try {
    // Raced with a cancel that comes while it runs; a call that settled as the run was cancelled keeps its result.
    const hooked = hooks.runPostToolUse(context, result, errors);
    return done(id, true, await (signal.aborted ? hooked : abortable(hooked, signal)));
  } catch (error) {
    if (isAbortError(error) || signal.aborted) return done(id, true, cancelledResult(errors));
    // Withheld rather than passed on unhooked: the failing hook may have been the one meant to mask the result.
    const message =
      PlingError.isInstance(error) && error.code === 'HOOK_FAILED'
        ? error.message
        : errors.postToolUseFailed(describe(error));
    return done(id, true, failure('HOOK_FAILED', message));
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A handler's error as the call's result: its own code when it carries one (TOOL_ERROR_CODE), else TOOL_FAILED. */
function thrownFailure(error: unknown): ToolResult {
  const message = describe(error);
  const code =
    typeof error === 'object' && error !== null ? (error as Record<symbol, unknown>)[TOOL_ERROR_CODE] : undefined;
  if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(code)) return failure('TOOL_FAILED', message);
  // The code is in the result now; a message that led with it (to survive as TOOL_FAILED text) need not repeat it.
  return failure(code, message.startsWith(`${code}: `) ? message.slice(code.length + 2) : message);
}

function done(id: string, ran: boolean, result: ToolResult): ToolCallOutcome {
  return { kind: 'done', id, ran, result };
}

function failure(code: string, message: string): ToolResult {
  return { error: { code, message } };
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
