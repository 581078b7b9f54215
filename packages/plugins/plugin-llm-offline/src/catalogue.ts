// Every text the offline model shows or says, in zh-CN and en. It always says that it is the offline model.
import { defineCatalogue } from '@aalis/core';

export const offlineTexts = defineCatalogue({
  'zh-CN': {
    'llm-offline.model.name': '离线演示模型（offline）',
    'llm-offline.reply.echo':
      '（离线演示模型）我是不联网的离线演示模型，只按固定规则回复。你说的是：「{excerpt}」（共 {chars} 个字）。要和真正的模型对话，请启用并配置 @aalis/plugin-llm-openai（填写 baseUrl 与 apiKey），再把 llm 服务偏好设为它的模型。想试工具调用，可以写：call: 工具名 {"参数":"值"}（或在消息里单独一行写 /call 工具名 {…}）',
    'llm-offline.reply.empty':
      '（离线演示模型）我是不联网的离线演示模型，这次没有收到你的消息。要和真正的模型对话，请启用并配置 @aalis/plugin-llm-openai。',
    'llm-offline.reply.tool-results': '（离线演示模型）工具返回了结果：\n{results}',
    'llm-offline.reply.tool-result-line': '- {tool}:{summary}',
    'llm-offline.reply.bad-arguments':
      '（离线演示模型）没有调用 {tool}：参数不是一个 JSON 对象（{problem}）。写法：call: {tool} {"参数":"值"}',
    'llm-offline.reply.unknown-tool': '（离线演示模型）没有调用 {tool}：这一轮没有这个工具。可用的工具：{available}。',
    'llm-offline.none': '（无）',
    'llm-offline.not-object': '它不是对象',
  },
  en: {
    'llm-offline.model.name': 'Offline demo model (offline)',
    'llm-offline.reply.echo':
      '(Offline demo model) I am the offline demo model: no network, fixed rules. You said: "{excerpt}" ({chars, plural, one {# character} other {# characters}}). To talk to a real model, enable and configure @aalis/plugin-llm-openai (baseUrl and apiKey) and set the llm service preference to one of its models. To try a tool call, write: call: tool_name {"arg":"value"} (or /call tool_name {…} on a line of its own inside a message)',
    'llm-offline.reply.empty':
      '(Offline demo model) I am the offline demo model, and I received no message this time. To talk to a real model, enable and configure @aalis/plugin-llm-openai.',
    'llm-offline.reply.tool-results': '(Offline demo model) The tools returned:\n{results}',
    'llm-offline.reply.tool-result-line': '- {tool}: {summary}',
    'llm-offline.reply.bad-arguments':
      '(Offline demo model) Did not call {tool}: the arguments are not a JSON object ({problem}). Write: call: {tool} {"arg":"value"}',
    'llm-offline.reply.unknown-tool':
      '(Offline demo model) Did not call {tool}: no such tool is offered this turn. Tools offered: {available}.',
    'llm-offline.none': '(none)',
    'llm-offline.not-object': 'it is not an object',
  },
});
