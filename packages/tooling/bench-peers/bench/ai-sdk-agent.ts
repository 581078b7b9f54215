// The AI SDK as its documentation shows it: generateText with a tool and a step limit over the OpenAI-compatible
// provider, the application keeping each session's messages (response.messages appended after every turn), and,
// with a budget, a sliding window over the messages of every step (prepareStep), counted with gpt-tokenizer.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { lookupValue, TOOL_DESCRIPTION, TOOL_KEY_DESCRIPTION, TOOL_NAME } from '../src/model-script.js';
import { PromptTokenizer } from '../src/prompt-share.js';
import { slidingWindow } from '../src/sliding-window.js';
import { type BenchAgent, type BenchAgentOptions, MODEL_ID, SYSTEM_PROMPT } from './bench-agent.js';

const tokenizer = new PromptTokenizer();

/** o200k tokens of an AI SDK message: its text and tool parts, and a few tokens of framing. */
function countTokens(message: ModelMessage): number {
  if (typeof message.content === 'string') return 4 + tokenizer.tokens(message.content).length;
  let total = 4;
  for (const part of message.content) {
    if (part.type === 'text') total += tokenizer.tokens(part.text).length;
    else if (part.type === 'tool-call')
      total += 3 + tokenizer.tokens(`${part.toolName}${JSON.stringify(part.input)}`).length;
    else if (part.type === 'tool-result') total += tokenizer.tokens(JSON.stringify(part.output)).length;
  }
  return total;
}

export async function createAiSdkAgent({ url, budget }: BenchAgentOptions): Promise<BenchAgent> {
  const provider = createOpenAICompatible({ name: 'bench', baseURL: url, apiKey: 'bench', includeUsage: true });
  const model = provider.chatModel(MODEL_ID);
  const tools = {
    [TOOL_NAME]: tool({
      description: TOOL_DESCRIPTION,
      inputSchema: z.object({ key: z.string().describe(TOOL_KEY_DESCRIPTION) }),
      execute: async ({ key }) => lookupValue(key),
    }),
  };
  const sessions = new Map<string, ModelMessage[]>();
  return {
    name: 'AI SDK generateText',
    turn: async (sessionId, text) => {
      const history = sessions.get(sessionId) ?? [];
      sessions.set(sessionId, history);
      history.push({ role: 'user', content: text });
      const result = await generateText({
        model,
        system: SYSTEM_PROMPT,
        messages: history,
        tools,
        stopWhen: stepCountIs(5),
        maxRetries: 0,
        prepareStep:
          budget === undefined
            ? undefined
            : ({ messages }) => ({ messages: slidingWindow(messages, budget, countTokens) }),
      });
      history.push(...result.response.messages);
    },
    close: async () => {
      sessions.clear();
    },
  };
}
