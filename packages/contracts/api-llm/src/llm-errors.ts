// The coded errors of the llm service. Every provider throws these (never raw HTTP or socket errors), each
// carrying `isRetryable`, and `details.providerMessage` when the provider's server said something.
import { AalisError, defineErrors } from '@aalis/core';

export const llmErrors = defineErrors({
  AALIS_LLM_AUTH: {
    en: 'Model provider {provider} ({baseUrl}) refused the credentials (HTTP {status}): {providerMessage}. Check the apiKey in the config of plugin instance {provider}.',
    'zh-CN':
      '模型服务 {provider}（{baseUrl}）拒绝了凭据（HTTP {status}）：{providerMessage}。请检查插件实例 {provider} 配置里的 apiKey。',
    isRetryable: false,
  },
  AALIS_LLM_MODEL_NOT_FOUND: {
    en: 'Model {model} is not available at {provider}: {providerMessage}. Models offered: {available}.',
    'zh-CN': '模型 {model} 在 {provider} 不可用：{providerMessage}。可用的模型：{available}。',
    isRetryable: false,
  },
  AALIS_LLM_ENDPOINT_NOT_FOUND: {
    en: '{provider}: {url} does not exist (HTTP 404: {providerMessage}). Check baseUrl; OpenAI-compatible servers usually expect it to end in /v1.',
    'zh-CN':
      '{provider}:{url} 不存在（HTTP 404：{providerMessage}）。请检查 baseUrl，OpenAI 兼容接口的地址通常以 /v1 结尾。',
    isRetryable: false,
  },
  AALIS_LLM_CONTEXT_TOO_LONG: {
    en: 'The request to {model} does not fit its context window: {providerMessage}. Shorten the history, or set a smaller contextWindow for this model so requests are trimmed to fit.',
    'zh-CN':
      '发给 {model} 的请求超出了它的上下文窗口：{providerMessage}。请缩短历史，或给这个模型配置更小的 contextWindow，让请求按它裁剪。',
    isRetryable: false,
  },
  AALIS_LLM_RATE_LIMITED: {
    en: '{provider} is rate limiting calls to {model} (HTTP 429): {providerMessage}. Try again later, or raise the limits of the account.',
    'zh-CN': '{provider} 对 {model} 的调用限流了（HTTP 429）：{providerMessage}。请稍后再试，或提高账号的限额。',
    isRetryable: true,
  },
  AALIS_LLM_SERVER: {
    en: '{provider} failed to answer for {model} (HTTP {status}): {providerMessage}. This is a problem on the server side; try again later.',
    'zh-CN': '{provider} 没能为 {model} 作答（HTTP {status}）：{providerMessage}。这是服务端的问题，请稍后再试。',
    isRetryable: true,
  },
  AALIS_LLM_BAD_REQUEST: {
    en: '{provider} refused the request to {model} (HTTP {status}): {providerMessage}.',
    'zh-CN': '{provider} 拒绝了发给 {model} 的请求（HTTP {status}）：{providerMessage}。',
    isRetryable: false,
  },
  AALIS_LLM_NETWORK: {
    en: 'Could not talk to {provider} at {baseUrl}: {reason}. Check that the server is running and reachable.',
    'zh-CN': '无法与 {provider}（{baseUrl}）通信：{reason}。请确认服务在运行且可以访问。',
    isRetryable: true,
  },
  AALIS_LLM_TIMEOUT: {
    en: '{provider} at {baseUrl} sent nothing for {ms} ms ({phase}). If the model is just slow, raise timeouts.{setting} in the config of {provider}.',
    'zh-CN':
      '{provider}（{baseUrl}）已有 {ms} 毫秒没有数据（{phase}）。若只是模型慢，请调大 {provider} 配置里的 timeouts.{setting}。',
    isRetryable: true,
  },
  AALIS_LLM_BAD_STREAM: {
    en: '{provider} sent a stream for {model} that cannot be read: {problem}.',
    'zh-CN': '{provider} 为 {model} 发来的流无法读取：{problem}。',
    isRetryable: false,
  },
  AALIS_LLM_ABORTED: {
    en: 'The call to {model} was aborted.',
    'zh-CN': '对 {model} 的调用已中止。',
    isRetryable: false,
  },
  AALIS_LLM_NO_MODEL: {
    en: 'No model is available: no llm provider offers a model now. Enable a provider plugin such as @aalis/plugin-llm-openai, or the offline demo model @aalis/plugin-llm-offline.',
    'zh-CN':
      '没有可用的模型：现在没有任何 llm 服务提供者提供模型。请启用提供者插件，如 @aalis/plugin-llm-openai，或离线演示模型 @aalis/plugin-llm-offline。',
    isRetryable: false,
  },
});

export type LlmErrorCode = keyof typeof llmErrors;

/** Whether a value is one of the llm service's errors. */
export function isLlmError(value: unknown): value is AalisError {
  return AalisError.isInstance(value) && value.code in llmErrors;
}
