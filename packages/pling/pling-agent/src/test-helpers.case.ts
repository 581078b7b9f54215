// Test fakes: a scripted model client that records every request, and a clock that never waits.
import type { ToolCall } from '@aalis/schema-message';
import type { Clock } from './clock.js';
import { cancelled } from './clock.js';
import type { LlmClient, ModelRequest, ModelResponse } from './llm-client.js';

export type ScriptedReply =
  | Partial<ModelResponse>
  | Error
  | ((request: ModelRequest) => Promise<ModelResponse> | ModelResponse);

export interface ScriptedLlm extends LlmClient {
  requests: ModelRequest[];
}

/** Answers each request with the next reply; a text reply when the script has run out. */
export function scriptedLlm(replies: ScriptedReply[]): ScriptedLlm {
  const queue = [...replies];
  const requests: ModelRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push({ ...request, messages: [...request.messages] });
      const reply = queue.shift() ?? { content: 'done' };
      if (reply instanceof Error) throw reply;
      if (typeof reply === 'function') return reply(request);
      return { content: '', toolCalls: [], ...reply };
    },
  };
}

export function toolCall(id: string, name: string, args: Record<string, unknown> = {}): ToolCall {
  return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

/** A clock whose sleep resolves at once (recording the delay); now() advances 1 ms per call. */
export function manualClock(): Clock & { sleeps: number[] } {
  let time = 1_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time++,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (signal?.aborted) throw cancelled();
    },
  };
}
