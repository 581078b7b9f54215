// Fixed texts of the OpenAI-compatible provider that reach users or the model.
import { defineCatalogue } from '@aalis/core';

export const openAiTexts = defineCatalogue({
  'zh-CN': {
    'llm-openai.attachment.described': '[附件 {name}:{description}]',
    'llm-openai.attachment.unseen': '[附件 {name} 没有发给模型:它不接受这种内容]',
    'llm-openai.phase.connect': '等待连接与响应头',
    'llm-openai.phase.idle': '等待流的下一段',
    'llm-openai.stream.truncated': '流在回复完成之前就断了',
    'llm-openai.stream.malformed': 'SSE 数据不是合法的 JSON:{line}',
    'llm-openai.none': '(无)',
    'llm-openai.no-message': '(服务没有给出说明)',
  },
  en: {
    'llm-openai.attachment.described': '[attachment {name}: {description}]',
    'llm-openai.attachment.unseen':
      '[attachment {name} was not sent to the model: it does not take this kind of content]',
    'llm-openai.phase.connect': 'waiting for the connection and the response headers',
    'llm-openai.phase.idle': 'waiting for the next part of the stream',
    'llm-openai.stream.truncated': 'the stream broke off before the response was complete',
    'llm-openai.stream.malformed': 'SSE data is not valid JSON: {line}',
    'llm-openai.none': '(none)',
    'llm-openai.no-message': '(the server gave no explanation)',
  },
});
