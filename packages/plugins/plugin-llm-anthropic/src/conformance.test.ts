// The shared llm contract suite (the one the OpenAI provider runs), against this provider and the emulating server.
import { type ConformanceScenario, describeLlmConformance } from '@aalis/api-llm/conformance';
import type { Message } from '@aalis/schema-message';
import { startAnthropicTestServer, textReply, toolCallReply } from '@aalis/testing';
import { API_KEY, bootAnthropic } from './fixture.case.js';

describeLlmConformance({
  name: '@aalis/plugin-llm-anthropic over HTTP',
  async setup() {
    const server = await startAnthropicTestServer({ apiKey: API_KEY });
    const fixture = await bootAnthropic({ server, id: 'conformance' });
    return {
      service: fixture.provider,
      model: fixture.model,
      usage: () => fixture.usage,
      prepare(scenario: ConformanceScenario): Message[] {
        switch (scenario.kind) {
          case 'text':
            server.enqueue(textReply('A plain answer from the emulated Messages API.'));
            return [{ role: 'user', content: 'Say something.' }];
          case 'tool-calls':
            server.enqueue(toolCallReply(scenario.calls.map((call, index) => ({ id: `toolu_${index}`, ...call }))));
            return [{ role: 'user', content: 'Use your tools.' }];
          case 'after-tool':
            server.enqueue(textReply(`The tool said: ${scenario.result}`));
            return [
              { role: 'user', content: 'Use your tool.' },
              {
                role: 'assistant',
                content: '',
                toolCalls: [
                  { id: 'toolu_1', type: 'function', function: { name: scenario.toolName, arguments: '{}' } },
                ],
              },
              { role: 'tool', content: scenario.result, toolCallId: 'toolu_1' },
            ];
        }
      },
      async close() {
        await fixture.stop();
        const rejected = server.requests.filter((request) => request.rejected !== undefined);
        await server.close();
        if (rejected.length > 0)
          throw new Error(`the emulated API rejected: ${rejected.map((r) => r.rejected).join('; ')}`);
      },
    };
  },
});
