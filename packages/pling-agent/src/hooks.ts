// Tool lifecycle hooks: an application-level policy seam. PreToolUse may block a call before the tool runs;
// PostToolUse may replace the result the following hooks, the event list and the model see.

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

  /** Runs pre hooks in registration order; the first block stops the chain. */
  async runPreToolUse(context: ToolUseContext): Promise<{ blocked: true; reason: string } | undefined> {
    for (const hook of [...this.pre]) {
      const decision = await hook(context);
      if (decision && decision.blocked === true) return { blocked: true, reason: String(decision.reason) };
    }
    return undefined;
  }

  /** Runs post hooks in registration order; a non-undefined return replaces the result for what follows. */
  async runPostToolUse(context: ToolUseContext, result: ToolResult): Promise<ToolResult> {
    let current = result;
    for (const hook of [...this.post]) {
      const replacement = await hook({ ...context, result: current });
      if (replacement !== undefined) current = replacement;
    }
    return current;
  }
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
