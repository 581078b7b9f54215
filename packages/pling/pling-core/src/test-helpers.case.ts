// Test fakes: a scripted model client that records every request, a clock that never waits, and a way to wait
// for a page's confirmation queue to hold a request.
import type { Clock, LlmClient, ModelRequest, ModelResponse } from '@plingjs/agent';
import type { ConfirmationRequest } from './confirmation-queue.js';
import type { Page } from './page.js';

export type ScriptedReply = Partial<ModelResponse> | ((request: ModelRequest) => ModelResponse);

export function scriptedLlm(replies: ScriptedReply[]): LlmClient & { requests: ModelRequest[] } {
  const queue = [...replies];
  const requests: ModelRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push({ ...request, messages: [...request.messages] });
      const reply = queue.shift() ?? { content: 'done' };
      if (typeof reply === 'function') return reply(request);
      return { content: '', toolCalls: [], ...reply };
    },
  };
}

export function toolCall(id: string, name: string, args: Record<string, unknown> = {}) {
  return { id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } };
}

export function manualClock(): Clock & { sleeps: number[] } {
  let time = 1_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time++,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  };
}

/** Resolves with the first pending confirmation (at once if one is pending). */
export function nextConfirmation(page: Page): Promise<ConfirmationRequest> {
  return new Promise((resolve) => {
    const check = () => {
      const first = page.confirmations.getSnapshot()[0];
      if (!first) return false;
      unsubscribe?.();
      resolve(first);
      return true;
    };
    let unsubscribe: (() => void) | undefined;
    if (!check()) unsubscribe = page.confirmations.subscribe(() => void check());
  });
}
