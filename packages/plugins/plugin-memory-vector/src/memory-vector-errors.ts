// Coded errors of long-term memory: what went wrong with its vectors, and how to fix it, in the reader's language.
import { defineErrors } from '@aalis/core';

export const memoryVectorErrors = defineErrors({
  AALIS_MEMORY_VECTOR_EXTENSION_MISSING: {
    'zh-CN':
      '向量索引要用的 SQLite 扩展 sqlite-vec 在这台机器（{platform}）上载入不了：{reason}。长期记忆只按全文检索；请重新 npm install，或改用 PostgreSQL（database: postgres://…）。',
    en: 'The SQLite extension sqlite-vec that the vector index needs cannot be loaded on this machine ({platform}): {reason}. Long-term memory recalls by full text only; run npm install again, or use PostgreSQL (database: postgres://…).',
  },
  AALIS_MEMORY_VECTOR_MODEL_CHANGED: {
    'zh-CN':
      '长期记忆存的向量属于 {stored}，现在配置的向量模型是 {configured}：两者不能比较，向量召回先停用、只按全文检索。运行 aalis memory reindex 按新模型重建向量。',
    en: 'The vectors long-term memory holds belong to {stored}, and the configured embedding model is {configured}: they cannot be compared, so dense recall is off and recall uses full text only. Run aalis memory reindex to rebuild the vectors with the new model.',
  },
  AALIS_MEMORY_VECTOR_EMBEDDING_FAILED: {
    'zh-CN': '长期记忆算向量失败（{reason}）：消息照常按全文索引、召回照常按全文检索，没有丢失；{seconds} 秒后再试。',
    en: 'Long-term memory could not compute vectors ({reason}): messages are still indexed and recalled by full text, nothing is lost; it tries again in {seconds} s.',
  },
  AALIS_MEMORY_VECTOR_NO_EMBEDDING: {
    'zh-CN': '没有向量服务：请先配置 plugins.embedding-openai（baseUrl、model），再运行 aalis memory reindex。',
    en: 'There is no embedding service: configure plugins.embedding-openai (baseUrl, model) first, then run aalis memory reindex.',
  },
});
