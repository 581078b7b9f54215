// The coded errors of the embedding contract: every provider rejects with one of these, so a consumer can tell an
// endpoint that is down from one that answers vectors it cannot use, and tell the reader how to fix it.
import { defineErrors } from '@aalis/core';

export const embeddingErrors = defineErrors({
  AALIS_EMBEDDING_FAILED: {
    'zh-CN': '向量服务 {endpoint}（模型 {model}）出错了：{reason}',
    en: 'The embedding service {endpoint} (model {model}) failed: {reason}',
    isRetryable: true,
  },
  AALIS_EMBEDDING_DIMENSION_MISMATCH: {
    'zh-CN':
      '向量服务 {endpoint}（模型 {model}）给的向量有 {got} 维，应是 {expected} 维。请把 dimensions 设成模型实际的维数，或换回原来的模型；换了模型之后运行 aalis memory reindex 重建索引。',
    en: 'The embedding service {endpoint} (model {model}) answered vectors of {got} dimensions where {expected} were expected. Set dimensions to what the model gives, or go back to the previous model; after changing the model run aalis memory reindex.',
  },
  AALIS_EMBEDDING_BAD_RESPONSE: {
    'zh-CN':
      '向量服务 {endpoint}（模型 {model}）的回答用不了：{problem}（回答开头：{answer}）。它应按 OpenAI 的 /embeddings 格式回答 data[].embedding。',
    en: 'The embedding service {endpoint} (model {model}) answered something unusable: {problem} (its answer began: {answer}). It should answer data[].embedding as OpenAI’s /embeddings does.',
  },
  AALIS_EMBEDDING_URL_INVALID: {
    'zh-CN':
      '{key} 不是可用的地址（{baseUrl}：{problem}）；应是 http:// 或 https:// 地址，例如 https://api.openai.com/v1。',
    en: '{key} is not a usable URL ({baseUrl}: {problem}); it should be an http:// or https:// URL such as https://api.openai.com/v1.',
  },
});
