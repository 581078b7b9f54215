// @aalis/plugin-embedding-openai: the `embedding` service through an OpenAI-compatible /embeddings endpoint
// (OpenAI, Ollama, vLLM, llama.cpp's server, text-embeddings-inference …), configured under
// plugins.embedding-openai. Long-term memory (@aalis/plugin-memory-vector) uses it for dense recall.
import { embedding } from '@aalis/api-embedding';
import { config, definePlugin, i18n, lifecycle, logger, provide } from '@aalis/core';
import { embeddingOpenAiConfigSchema } from './embedding-openai-config.js';
import { OpenAiEmbedder } from './openai-embedder.js';

export { type EmbeddingOpenAiConfig, embeddingOpenAiConfigSchema } from './embedding-openai-config.js';
export { OpenAiEmbedder } from './openai-embedder.js';

export const EMBEDDING_OPENAI_PLUGIN = '@aalis/plugin-embedding-openai';

export const embeddingOpenAiPlugin = definePlugin({
  name: EMBEDDING_OPENAI_PLUGIN,
  provides: [embedding],
  uses: { config, i18n, logger, lifecycle, provide },
  config: embeddingOpenAiConfigSchema,
  apply(handles) {
    const embedder = new OpenAiEmbedder(handles.config.use, {
      i18n: handles.i18n.use,
      logger: handles.logger.use,
      plugin: EMBEDDING_OPENAI_PLUGIN,
      instance: 'embedding-openai',
    });
    handles.provide.use.service(embedding, embedder);
    handles.lifecycle.use.onDispose(() => embedder.close());
  },
});

export default embeddingOpenAiPlugin;
