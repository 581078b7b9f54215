// LangGraph.js as its documentation shows it: createReactAgent over ChatOpenAI with a SQLite checkpointer (one
// thread per session), and, with a budget, trimMessages (strategy 'last', gpt-tokenizer counts) in a preModelHook.
import { join } from 'node:path';
import { type BaseMessage, HumanMessage, trimMessages } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { lookupValue, TOOL_DESCRIPTION, TOOL_KEY_DESCRIPTION, TOOL_NAME } from '../src/model-script.js';
import { PromptTokenizer } from '../src/prompt-share.js';
import { type BenchAgent, type BenchAgentOptions, MODEL_ID, SYSTEM_PROMPT } from './bench-agent.js';

const tokenizer = new PromptTokenizer();

/** o200k tokens of LangChain messages: text, tool calls, and a few tokens of framing each. */
function countTokens(messages: BaseMessage[]): number {
  let total = 0;
  for (const message of messages) {
    total += 4 + tokenizer.tokens(message.text).length;
    for (const call of 'tool_calls' in message && Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      total += 3 + tokenizer.tokens(`${call.name}${JSON.stringify(call.args)}`).length;
    }
  }
  return total;
}

export async function createLangGraphAgent({ url, dir, budget }: BenchAgentOptions): Promise<BenchAgent> {
  const llm = new ChatOpenAI({ model: MODEL_ID, apiKey: 'bench', configuration: { baseURL: url }, maxRetries: 0 });
  const lookup = tool(async ({ key }: { key: string }) => lookupValue(key), {
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    schema: z.object({ key: z.string().describe(TOOL_KEY_DESCRIPTION) }),
  });
  const checkpointer = SqliteSaver.fromConnString(join(dir, 'langgraph.sqlite'));
  const agent = createReactAgent({
    llm,
    tools: [lookup],
    prompt: SYSTEM_PROMPT,
    checkpointer,
    preModelHook:
      budget === undefined
        ? undefined
        : async (state: { messages: BaseMessage[] }) => ({
            llmInputMessages: await trimMessages(state.messages, {
              maxTokens: budget,
              strategy: 'last',
              tokenCounter: countTokens,
              startOn: 'human',
              includeSystem: true,
            }),
          }),
  });
  return {
    name: 'LangGraph.js createReactAgent',
    turn: async (sessionId, text) => {
      await agent.invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id: sessionId } });
    },
    close: async () => {
      checkpointer.db.close();
    },
  };
}
