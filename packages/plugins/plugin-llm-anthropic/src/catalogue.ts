// Fixed texts of the Anthropic provider that reach users or the model.
import { defineCatalogue } from '@aalis/core';

export const anthropicTexts = defineCatalogue({
  'zh-CN': {
    'llm-anthropic.thinking.off': '不思考',
    'llm-anthropic.thinking.low': '少量思考',
    'llm-anthropic.thinking.medium': '适度思考',
    'llm-anthropic.thinking.high': '深度思考',
    'llm-anthropic.attachment.described': '[附件 {name}：{description}]',
    'llm-anthropic.attachment.unseen': '[附件 {name} 没有发给模型：它不接受这种内容]',
    'llm-anthropic.none': '（无）',
    'llm-anthropic.history.omitted': '[更早的对话已省略]',
    'llm-anthropic.baseUrl.expected':
      '一个 http:// 或 https:// 地址，带主机名与有效端口，例如 https://api.anthropic.com',
  },
  en: {
    'llm-anthropic.thinking.off': 'No thinking',
    'llm-anthropic.thinking.low': 'Brief thinking',
    'llm-anthropic.thinking.medium': 'Moderate thinking',
    'llm-anthropic.thinking.high': 'Deep thinking',
    'llm-anthropic.attachment.described': '[attachment {name}: {description}]',
    'llm-anthropic.attachment.unseen':
      '[attachment {name} was not sent to the model: it does not take this kind of content]',
    'llm-anthropic.none': '(none)',
    'llm-anthropic.history.omitted': '[Earlier conversation omitted]',
    'llm-anthropic.baseUrl.expected':
      'an http:// or https:// URL with a host and a valid port, e.g. https://api.anthropic.com',
  },
});
