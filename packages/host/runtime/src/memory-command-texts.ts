// The texts of `aalis memory reindex`, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

export const memoryCommandTexts = defineCatalogue({
  'zh-CN': {
    'runtime.memory.disabled': '配置里关掉了长期记忆（plugins.memory-vector: false），没有可重建的索引。',
    'runtime.memory.notActive': '长期记忆没能启动：{reason}',
    'runtime.memory.start': '按向量模型 {model} 重建长期记忆的向量：共 {total} 条消息。',
    'runtime.memory.progress': '重建向量：{embedded}/{total}（{percent}%）',
    'runtime.memory.done': '完成：{embedded} 条消息有了 {model} 的向量（{dimensions} 维），用时 {seconds} 秒。',
    'runtime.memory.failed':
      '重建中断：{reason}\n已经算好的向量保留着；修好之后再运行 aalis memory reindex，或启动 Aalis 让它在后台接着算。',
    'runtime.memory.serverRunning':
      '注意：Aalis 正在这份数据上运行（pid {pid}）。重建完成后请重新启动它，让它用上新的向量。',
  },
  en: {
    'runtime.memory.disabled':
      'Long-term memory is turned off in the configuration (plugins.memory-vector: false): there is no index to rebuild.',
    'runtime.memory.notActive': 'Long-term memory could not start: {reason}',
    'runtime.memory.start':
      'Rebuilding long-term memory’s vectors with the embedding model {model}: {total, plural, one {# message} other {# messages}}.',
    'runtime.memory.progress': 'Re-indexing vectors: {embedded}/{total} ({percent} %)',
    'runtime.memory.done':
      'Done: {embedded, plural, one {# message has} other {# messages have}} vectors of {model} ({dimensions} dimensions), in {seconds} s.',
    'runtime.memory.failed':
      'Re-indexing stopped: {reason}\nThe vectors made so far are kept; once fixed, run aalis memory reindex again, or start Aalis and it goes on in the background.',
    'runtime.memory.serverRunning':
      'Note: Aalis is running on this data (pid {pid}). Restart it once the re-index is done so that it uses the new vectors.',
  },
});
