// One batch of tool calls (plugin-agent.zh.md 「核心流程」 工具调用循环, 「工具调用上下文」): each call gets its
// ToolCallContext from the inputs already sent to the model, runs through agent:tool:before / after, and ends as a
// tool result; malformed arguments and refused calls are answered without running, each with a tool:execute pair.
// The group (assistant + every result) is stored and appended whole, so history never holds half a group.
import { originTurnOf } from '@aalis/api-authority';
import { emitToolExecuteFailure, type ToolCallContext, type ToolResult } from '@aalis/api-tools';
import { estimateTextTokens } from '@aalis/context-budget';
import { textRef } from '@aalis/core';
import { type Message, type ToolCall, WellKnownMetadataKeys } from '@aalis/schema-message';
import type { AgentDeps } from '../agent-deps.js';
import type { ModelCallResult } from './model-call.js';
import { parseToolArguments } from './tool-arguments.js';
import { heldWrite, saveAgentMessages, sendTurnMessage } from './turn-persistence.js';
import type { TurnContext, TurnProgress } from './turn-state.js';

/** Runs the calls, stores and appends the group; resolves how many messages it appended. */
export async function runToolBatch(
  deps: AgentDeps,
  { state, progress }: { state: TurnContext; progress: TurnProgress },
  response: ModelCallResult,
): Promise<number> {
  // Words said before the tool calls reach the platform as soon as the call returned, before the tools run, except
  // in rooms (there only the last reply goes out); sendTurnMessage sends nothing from a stopped turn.
  if (response.content.trim() !== '' && state.facts.kind !== 'room') {
    await sendTurnMessage(deps, state, { kind: 'reply', content: response.content });
  }
  const origin = deps.authority.available
    ? deps.authority.use.originTurnOf(state.messages)
    : originTurnOf({ inputs: state.messages });
  const storedCalls: ToolCall[] = [];
  const results: Message[] = [];
  for (const [index, call] of response.toolCalls.entries()) {
    const callId = response.callIds[index]!;
    const parsed = parseToolArguments(call.function.arguments);
    // Bad JSON never goes back to the provider: the stored and re-sent call carries {} instead.
    storedCalls.push(parsed.ok ? call : { ...call, function: { ...call.function, arguments: '{}' } });
    const context: ToolCallContext = {
      sessionId: state.sessionId,
      platform: origin.platform,
      participants: origin.participants,
      inbound: origin.inbound,
      authorised: origin.authorised,
      signal: state.running.controller.signal,
      turnId: state.turnId,
      callId,
      acceptsImages: state.settings.model.capabilities.vision,
      ...(origin.userId !== undefined ? { userId: origin.userId } : {}),
    };
    const base = { name: call.function.name, callId, turnId: state.turnId, sessionId: state.sessionId };
    let result: ToolResult;
    let metadata: Record<string, unknown> = {};
    if (state.running.controller.signal.aborted) {
      result = {
        isError: true,
        content: deps.i18n.t(textRef('agent.tool.beforeFailed', { name: call.function.name, reason: 'aborted' })),
      };
      emitToolExecuteFailure({ events: deps.events, call: base, arguments: call.function.arguments, result });
    } else if (!parsed.ok) {
      result = {
        isError: true,
        content: deps.i18n.t(
          textRef('agent.tool.badArguments', {
            name: call.function.name,
            problem: deps.i18n.t(textRef(`agent.tool.badArguments.${parsed.problem}`)),
            excerpt: parsed.excerpt,
          }),
        ),
      };
      emitToolExecuteFailure({ events: deps.events, call: base, arguments: call.function.arguments, result });
    } else {
      ({ result, metadata } = await runOneCall(deps, { name: call.function.name, args: parsed.args, context, base }));
    }
    results.push({
      role: 'tool',
      toolCallId: call.id,
      name: call.function.name,
      content: limitResult(deps, state, result.content),
      ...(result.attachments ? { attachments: result.attachments } : {}),
      metadata: {
        ...metadata,
        ...(result.metadata ?? {}),
        ...(result.isError ? { [WellKnownMetadataKeys.ToolError]: true } : {}),
        [WellKnownMetadataKeys.TurnId]: state.turnId,
        [WellKnownMetadataKeys.CallId]: callId,
      },
    });
  }
  const assistant: Message = {
    role: 'assistant',
    content: response.content,
    toolCalls: storedCalls,
    metadata: { [WellKnownMetadataKeys.TurnId]: state.turnId, [WellKnownMetadataKeys.Model]: response.model },
  };
  if (response.reasoningContent) assistant.reasoningContent = response.reasoningContent;
  const group = [assistant, ...results];
  // The tools have run (their effects are done): the group is held while the database cannot be written, as a reply.
  await heldWrite(
    deps,
    state,
    progress,
    Buffer.byteLength(JSON.stringify(group)),
    () => saveAgentMessages(deps, state, progress, group),
    // The group is one write: its assistant message stored means all of it is.
    {
      message: assistant,
      result: () => {
        progress.leftInHistory = true;
      },
    },
  );
  state.parts.turn.push(assistant, ...results);
  return 1 + results.length;
}

async function runOneCall(
  deps: AgentDeps,
  {
    name,
    args,
    context,
    base,
  }: {
    name: string;
    args: Record<string, unknown>;
    context: ToolCallContext;
    base: { name: string; callId: string; turnId: string; sessionId: string };
  },
): Promise<{ result: ToolResult; metadata: Record<string, unknown> }> {
  const before = { name, args, toolCallContext: context };
  let result: ToolResult | undefined;
  try {
    const hook = await deps.hooks.use.run('agent:tool:before', before, async () => {
      result = deps.tools.available
        ? await deps.tools.use.execute({ name: before.name, arguments: before.args, context })
        : undefined;
    });
    if (!hook.reachedCentre || result === undefined) {
      const reason = hook.reachedCentre ? 'the tools service is not available' : 'refused by agent:tool:before';
      result = { isError: true, content: deps.i18n.t(textRef('agent.tool.beforeFailed', { name, reason })) };
      emitToolExecuteFailure({ events: deps.events, call: base, arguments: args, result });
    }
  } catch (error) {
    result = {
      isError: true,
      content: deps.i18n.t(
        textRef('agent.tool.beforeFailed', { name, reason: error instanceof Error ? error.message : String(error) }),
      ),
    };
    emitToolExecuteFailure({ events: deps.events, call: base, arguments: args, result });
  }
  const after = { name, result: result!, toolCallContext: context, metadata: {} as Record<string, unknown> };
  try {
    await deps.hooks.use.run('agent:tool:after', after);
  } catch (error) {
    deps.log.warn('agent:tool:after failed; the result is kept', {
      name,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return { result: after.result, metadata: after.metadata };
}

/** A single result may take at most toolResultMaxRatio of the context window. */
function limitResult(deps: AgentDeps, state: Pick<TurnContext, 'settings'>, content: string): string {
  const maxTokens = Math.floor(state.settings.model.contextWindow * deps.config.toolResultMaxRatio);
  const tokens = estimateTextTokens(content);
  if (maxTokens <= 0 || tokens <= maxTokens) return content;
  const keep = Math.max(0, Math.floor((content.length * maxTokens) / tokens) - 64);
  return `${content.slice(0, keep)}${deps.i18n.t(textRef('agent.tool.truncated', { length: content.length }))}`;
}
