// Test-only: a model client answering from a script and recording every request, and a tool-call builder.
import type { LlmClient, ModelRequest, ModelResponse } from '@plingjs/agent';

export type ScriptedAnswer =
  | Partial<ModelResponse>
  | ((request: ModelRequest) => Partial<ModelResponse> | Promise<Partial<ModelResponse>>);

export function scriptedLlm(answers: ScriptedAnswer[]): LlmClient & { requests: ModelRequest[] } {
  const queue = [...answers];
  const requests: ModelRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push({ ...request, messages: [...request.messages] });
      const answer = queue.shift() ?? { content: 'done' };
      const reply = typeof answer === 'function' ? await answer(request) : answer;
      return { content: '', toolCalls: [], ...reply };
    },
  };
}

export function toolCall(id: string, name: string, args: Record<string, unknown> = {}) {
  return { id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } };
}

/** An answer that never comes: it ends only when the request is aborted (the stop button, a reset). */
export function untilAborted(request: ModelRequest): Promise<Partial<ModelResponse>> {
  return new Promise((_resolve, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
  });
}

/** Resolves once `check` holds, re-checking after every macrotask (no fixed sleeps). */
export async function until(check: () => boolean, what: string, tries = 200): Promise<void> {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error(`timed out waiting for ${what}`);
}
