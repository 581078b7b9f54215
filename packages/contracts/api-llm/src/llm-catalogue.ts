// Fixed texts of the llm contract that users see: purpose labels and fallback warnings.
import { defineCatalogue, type TextRef, textRef } from '@aalis/core';
import type { LlmPurpose } from './chat-request.js';

defineCatalogue({
  'zh-CN': {
    'llm.purpose.conversation': '对话',
    'llm.purpose.subtask': '子任务',
    'llm.purpose.profile-extraction': '档案提取',
    'llm.fallback.request': '会话设置的模型 {preference} 现在不可用，本次改用 {actual}。',
    'llm.fallback.plugin': '本插件偏好的模型 {preference} 现在不可用，改用 {actual}。',
    'llm.fallback.global': '全局偏好的模型 {preference} 现在不可用，改用 {actual}。',
    'llm.model.not-listed': '它不在这个提供者的模型列表里',
  },
  en: {
    'llm.purpose.conversation': 'conversation',
    'llm.purpose.subtask': 'subtask',
    'llm.purpose.profile-extraction': 'profile extraction',
    'llm.fallback.request': "The session's model {preference} is not available now; using {actual} instead.",
    'llm.fallback.plugin': "This plugin's preferred model {preference} is not available now; using {actual} instead.",
    'llm.fallback.global': 'The globally preferred model {preference} is not available now; using {actual} instead.',
    'llm.model.not-listed': "it is not in this provider's model list",
  },
});

/** 「对话」 / 「子任务」 / 「档案提取」 (en: conversation / subtask / profile extraction). */
export function purposeLabel(purpose: LlmPurpose): TextRef {
  return textRef(`llm.purpose.${purpose}`);
}

/** The `providerMessage` of AALIS_LLM_MODEL_NOT_FOUND when a provider refuses a model before calling anything. */
export const MODEL_NOT_LISTED: TextRef = textRef('llm.model.not-listed');
