// A non-streaming Chat Completions response, read into the same events and response a stream would give.
import { StreamAssembler } from './stream-assembler.js';
import type { AssembledResponse, WireStreamEvent } from './stream-events.js';
import type { ChatCompletion } from './wire-types.js';

export function assembleCompletion(completion: ChatCompletion): {
  events: WireStreamEvent[];
  response: AssembledResponse;
} {
  const assembler = new StreamAssembler();
  const events: WireStreamEvent[] = [];
  const choice = completion.choices?.[0];
  const message = choice?.message;
  assembler.push(
    {
      model: completion.model,
      usage: completion.usage,
      choices: [
        {
          index: 0,
          finish_reason: choice?.finish_reason ?? null,
          delta: message
            ? {
                content: message.content,
                reasoning_content: message.reasoning_content ?? message.reasoning,
                tool_calls: message.tool_calls?.map((call, index) => ({
                  index,
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.function.name, arguments: call.function.arguments },
                })),
              }
            : null,
        },
      ],
    },
    events,
  );
  return { events, response: assembler.finish() };
}
