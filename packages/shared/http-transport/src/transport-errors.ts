// The coded errors of a provider's own transport configuration: a proxy it cannot use and a CA file it cannot read.
// Both are raised at activation, before any request. The codes keep the AALIS_LLM_OPENAI_ prefix they were first
// published with (the layer began in the OpenAI provider): codes are never renamed or reused.
import { defineErrors } from '@aalis/core';

export const transportErrors = defineErrors({
  AALIS_LLM_OPENAI_PROXY_UNSUPPORTED: {
    en: 'Plugin {plugin}: {source} = {received} cannot be used as a proxy: only http:// proxies are supported, like http://host:port or http://user:password@host:port. Change {source}, or set proxy: "" in the config of {plugin} to connect without a proxy.',
    'zh-CN':
      '插件 {plugin}：{source} = {received} 不能用作代理：只支持 http:// 代理，如 http://host:port 或 http://user:password@host:port。请修改 {source}，或在 {plugin} 的配置里设置 proxy: "" 以不经代理直接连接。',
    isRetryable: false,
  },
  AALIS_LLM_OPENAI_CA_FILE_UNREADABLE: {
    en: 'Plugin {plugin}: caFile {path} cannot be read ({reason}). Point caFile at an existing, readable PEM file with the CA certificates to trust, or remove caFile from the config of {plugin}.',
    'zh-CN':
      '插件 {plugin}：无法读取 caFile {path}（{reason}）。请让 caFile 指向一个存在且可读的 PEM 文件，内含要信任的 CA 证书，或从 {plugin} 的配置里去掉 caFile。',
    isRetryable: false,
  },
  AALIS_LLM_OPENAI_CA_FILE_INVALID: {
    en: 'Plugin {plugin}: caFile {path} holds no valid PEM certificate. It must contain one or more "-----BEGIN CERTIFICATE-----" blocks (the CA that signed the server certificate); fix the file or remove caFile from the config of {plugin}.',
    'zh-CN':
      '插件 {plugin}：caFile {path} 里没有有效的 PEM 证书。它应包含一个或多个 "-----BEGIN CERTIFICATE-----" 块（签发服务器证书的 CA）；请修正该文件，或从 {plugin} 的配置里去掉 caFile。',
    isRetryable: false,
  },
});
