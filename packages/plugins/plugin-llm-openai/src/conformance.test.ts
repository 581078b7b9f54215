// The shared llm contract suite, run against this provider and the scripted test server.
import type { LlmUsageEvent } from '@aalis/api-llm';
import { type ConformanceScenario, describeLlmConformance } from '@aalis/api-llm/conformance';
import type { Message } from '@aalis/schema-message';
import { startOpenAiTestServer, textReply, toolCallReply } from '@aalis/testing';
import { API_KEY, bootProvider } from './fixture.case.js';

describeLlmConformance({
  name: '@aalis/plugin-llm-openai over HTTP',
  async setup() {
    const server = await startOpenAiTestServer({ apiKey: API_KEY });
    const fixture = await bootProvider({ server, id: 'conformance' });
    const usage: LlmUsageEvent[] = fixture.usage;
    return {
      service: fixture.provider,
      model: fixture.model,
      usage: () => usage,
      prepare(scenario: ConformanceScenario): Message[] {
        switch (scenario.kind) {
          case 'text':
            server.enqueue(textReply('A plain answer from the test server.'));
            return [{ role: 'user', content: 'Say something.' }];
          case 'tool-calls':
            server.enqueue(toolCallReply(scenario.calls.map((call, index) => ({ id: `call_${index}`, ...call }))));
            return [{ role: 'user', content: 'Use your tools.' }];
          case 'after-tool':
            server.enqueue(textReply(`The tool said: ${scenario.result}`));
            return [
              { role: 'user', content: 'Use your tool.' },
              {
                role: 'assistant',
                content: '',
                toolCalls: [{ id: 'call_1', type: 'function', function: { name: scenario.toolName, arguments: '{}' } }],
              },
              { role: 'tool', content: scenario.result, toolCallId: 'call_1' },
            ];
        }
      },
      async close() {
        await fixture.stop();
        await server.close();
      },
    };
  },
});
