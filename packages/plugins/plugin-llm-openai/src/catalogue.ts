// Fixed texts of the OpenAI-compatible provider that reach users or the model.
import { defineCatalogue } from '@aalis/core';

export const openAiTexts = defineCatalogue({
  'zh-CN': {
    'llm-openai.attachment.described': '[附件 {name}：{description}]',
    'llm-openai.attachment.unseen': '[附件 {name} 没有发给模型：它不接受这种内容]',
    'llm-openai.none': '（无）',
    'llm-openai.baseUrl.expected': '一个 http:// 或 https:// 地址，带主机名与有效端口，例如 https://api.openai.com/v1',
  },
  en: {
    'llm-openai.attachment.described': '[attachment {name}: {description}]',
    'llm-openai.attachment.unseen':
      '[attachment {name} was not sent to the model: it does not take this kind of content]',
    'llm-openai.none': '(none)',
    'llm-openai.baseUrl.expected':
      'an http:// or https:// URL with a host and a valid port, e.g. https://api.openai.com/v1',
  },
});
