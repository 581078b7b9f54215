// One streamed model call: request with session id and purpose (「对话」/「子任务」), deltas pushed on
// outbound:stream with a callId per tool call, leaked special tokens stripped from the final text only.
import type { ChatResponse, LlmToolDefinition } from '@aalis/api-llm';
import type { ToolDefinition } from '@aalis/api-tools';
import type { Message, ToolChoice } from '@aalis/schema-message';
import { stripLeakedSpecialTokens } from '@aalis/util-text-normalize';
import type { AgentDeps } from '../agent-deps.js';
import { resolveTurnModel } from './turn-settings.js';
import type { TurnContext } from './turn-state.js';

export interface ModelCallResult extends ChatResponse {
  /** The callId each tool call (by position) executes with: the one streamed in toolCallProgress. */
  callIds: string[];
}

let callCounter = 0;
export function newCallId(): string {
  callCounter = (callCounter + 1) % 1_000_000;
  return `call_${Date.now().toString(36)}${callCounter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export async function callModel(
  deps: AgentDeps,
  state: TurnContext,
  {
    messages,
    tools,
    toolChoice,
    maxOutputTokens,
  }: {
    messages: Message[];
    /** 'none' once the tool-iteration limit is reached: the tools stay defined, none may be called. */
    toolChoice?: ToolChoice;
    tools: LlmToolDefinition[];
    /** The trim's allowance: the model's max output, lowered when the window leaves less room. */
    maxOutputTokens: number;
  },
): Promise<ModelCallResult> {
  const resolved = resolveTurnModel(deps, state);
  const callIds = new Map<number, string>();
  // Each delta's fragment is built as a literal of one shape (not a spread of a shared base): one per delta, so the
  // spread's copy showed in a tool turn's CPU.
  const { sessionId, turnId, platform } = state;
  const stream = resolved.provider.impl.chatStream(
    {
      model: state.settings.model.id,
      // The wire conversion sends role, content, calls and reasoning only: storage metadata never leaves.
      messages,
      tools,
      ...(toolChoice !== undefined ? { toolChoice } : {}),
      thinkingLevel: state.settings.thinkingLevel,
      maxOutputTokens,
      sessionId,
      purpose: state.facts.child ? 'subtask' : 'conversation',
    },
    { signal: state.running.controller.signal },
  );
  let response: ChatResponse | undefined;
  // A fragment is built only while someone listens (a platform, the session server); headless, nobody does.
  const { events } = deps;
  for await (const event of stream) {
    switch (event.type) {
      case 'text-delta':
        if (events.listens('outbound:stream')) {
          events.emit('outbound:stream', { sessionId, turnId, platform, delta: event.text });
        }
        break;
      case 'reasoning-delta':
        if (events.listens('outbound:stream')) {
          events.emit('outbound:stream', { sessionId, turnId, platform, reasoningDelta: event.text });
        }
        break;
      case 'tool-call-delta': {
        // The call's id is fixed at its first delta whether or not anyone listens: the call runs with it.
        let callId = callIds.get(event.index);
        if (callId === undefined) {
          callId = newCallId();
          callIds.set(event.index, callId);
        }
        if (!events.listens('outbound:stream')) break;
        events.emit('outbound:stream', {
          sessionId,
          turnId,
          platform,
          toolCallProgress: { callId, index: event.index, name: event.name, argumentsDelta: event.argumentsDelta },
        });
        break;
      }
      case 'response':
        response = event.response;
        break;
    }
  }
  if (!response) throw new Error('the model stream ended without a response');
  return {
    ...response,
    content: stripLeakedSpecialTokens(response.content),
    callIds: response.toolCalls.map((_call, index) => callIds.get(index) ?? newCallId()),
  };
}

/** A tool definition as the model provider receives it. */
export function toLlmTool(tool: ToolDefinition): LlmToolDefinition {
  return { name: tool.name, description: tool.description, parameters: tool.parameters as Record<string, unknown> };
}
