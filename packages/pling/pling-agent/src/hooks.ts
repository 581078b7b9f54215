// Tool lifecycle hooks: an application-level policy seam. PreToolUse may block a call before the tool runs;
// PostToolUse may replace the result the following hooks, the event list and the model see — but never turn a
// failed call into an executed one. Hooks get frozen copies: mutating them changes nothing.
import { PlingError } from './errors.js';
import { frozenCopy } from './frozen-copy.js';
import { type ErrorTexts, textsFor } from './texts.js';

/** A tool's outcome as the model receives it. */
export type ToolResult = { result: unknown } | { error: { code: string; message: string } };

export interface ToolUseContext {
  /** The action id (the page layer's id; the tool name when the tool declares none). */
  id: string;
  /** The tool name the model used. */
  toolName: string;
  arguments: Record<string, unknown>;
  /** The turn within the current send(), from 1. */
  turn: number;
}

// `void` is deliberate: a hook that only observes returns nothing, and `undefined` alone would reject it.
// biome-ignore lint/suspicious/noConfusingVoidType: observing hooks return nothing
export type PreToolUseDecision = { blocked: true; reason: string } | undefined | void;
export type PreToolUseHook = (context: ToolUseContext) => PreToolUseDecision | Promise<PreToolUseDecision>;

/** A replacement result: the same shape as ToolResult. */
export type PostToolUseReplacement = ToolResult;
export type PostToolUseHook = (
  context: ToolUseContext & { result: ToolResult },
) => PostToolUseOutcome | Promise<PostToolUseOutcome>;

// biome-ignore lint/suspicious/noConfusingVoidType: observing hooks return nothing
type PostToolUseOutcome = PostToolUseReplacement | undefined | void;

export class HookRegistry {
  private readonly pre: PreToolUseHook[] = [];
  private readonly post: PostToolUseHook[] = [];

  /** Registers a hook run before each tool call; returns its remover. */
  addPreToolUse(hook: PreToolUseHook): () => void {
    return add(this.pre, hook);
  }

  /** Registers a hook run after each tool call; returns its remover. */
  addPostToolUse(hook: PostToolUseHook): () => void {
    return add(this.post, hook);
  }

  /**
   * Runs pre hooks in registration order; the first block stops the chain. Each hook gets a frozen copy of the
   * context, so the arguments the handler receives are the model's, whatever a hook does. A hook that throws
   * rejects the returned promise (the runtime turns that into a HOOK_FAILED result for the call).
   */
  async runPreToolUse(context: ToolUseContext): Promise<{ blocked: true; reason: string } | undefined> {
    const view = frozenCopy(context);
    for (const hook of [...this.pre]) {
      const decision = await hook(view);
      if (decision && decision.blocked === true) return { blocked: true, reason: String(decision.reason) };
    }
    return undefined;
  }

  /**
   * Runs post hooks in registration order; a non-undefined return replaces the result for what follows. A
   * replacement must be `{ result }` or `{ error: { code, message } }` (else HOOK_FAILED is thrown); a success
   * offered for a failed call is ignored — 不能把失败结果变成已执行动作 — while a failure may replace a success
   * (a policy may withhold a result). `errors` words HOOK_FAILED (default zh-CN).
   */
  async runPostToolUse(context: ToolUseContext, result: ToolResult, errors?: ErrorTexts): Promise<ToolResult> {
    const failed = 'error' in result;
    const view = frozenCopy(context);
    let current = frozenCopy(result);
    for (const hook of [...this.post]) {
      const replacement = await hook({ ...view, result: current });
      if (replacement === undefined) continue;
      if (!isToolResult(replacement)) {
        throw new PlingError({
          code: 'HOOK_FAILED',
          message: (errors ?? textsFor(undefined).errors).postToolUseInvalid,
        });
      }
      if (failed && !('error' in replacement)) continue;
      current = frozenCopy(replacement);
    }
    return current;
  }
}

/** `{ result }` (any value) or `{ error: { code, message } }` with string code and message, nothing else. */
function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  if (keys[0] === 'result') return true;
  if (keys[0] !== 'error') return false;
  const error = (value as { error: unknown }).error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

function add<T>(list: T[], item: T): () => void {
  list.push(item);
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    const index = list.indexOf(item);
    if (index !== -1) list.splice(index, 1);
  };
}
