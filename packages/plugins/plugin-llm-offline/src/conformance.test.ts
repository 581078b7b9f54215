// The shared llm contract suite, run against the offline model (its `/call` syntax makes it call tools).
import { type LlmUsageEvent, llm } from '@aalis/api-llm';
import { type ConformanceScenario, describeLlmConformance } from '@aalis/api-llm/conformance';
import type { Message } from '@aalis/schema-message';
import { bootApp } from '@aalis/testing';
import plugin from './index.js';

describeLlmConformance({
  name: '@aalis/plugin-llm-offline',
  async setup() {
    const booted = await bootApp({ plugins: [[plugin, {}, { id: 'offline' }]] });
    const usage: LlmUsageEvent[] = booted.capture('llm:usage');
    return {
      service: booted.app.services.providers(llm)[0]!.impl,
      model: 'offline/demo',
      usage: () => usage,
      prepare(scenario: ConformanceScenario): Message[] {
        switch (scenario.kind) {
          case 'text':
            return [{ role: 'user', content: 'Tell me something.' }];
          case 'tool-calls':
            return [
              {
                role: 'user',
                content: scenario.calls
                  .map((call) => `/call ${call.name} ${JSON.stringify(call.arguments)}`)
                  .join('\n'),
              },
            ];
          case 'after-tool':
            return [
              { role: 'user', content: `/call ${scenario.toolName} {}` },
              {
                role: 'assistant',
                content: '',
                toolCalls: [{ id: 'call_1', type: 'function', function: { name: scenario.toolName, arguments: '{}' } }],
              },
              { role: 'tool', content: scenario.result, toolCallId: 'call_1' },
            ];
        }
      },
      close: () => booted.stop(),
    };
  },
});
