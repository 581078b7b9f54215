// What a connection test of a model provider found wrong (admin.providers.test), each saying what failed and how to
// fix it. The underlying error's own words follow as `cause`.
import { defineErrors } from '@aalis/core';

export const providerTestErrors = defineErrors({
  AALIS_PROVIDER_TEST_ADDRESS: {
    en: 'The address cannot be used: {detail}. Write the API root as an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1.',
    'zh-CN':
      '这个地址用不了：{detail}。请把 API 根地址写成 http:// 或 https:// 开头的 URL，例如 http://127.0.0.1:11434/v1（Ollama）或 https://api.openai.com/v1。',
  },
  AALIS_PROVIDER_TEST_DNS: {
    en: 'The host name {host} could not be found (DNS). Check the spelling of the address, or use the server’s IP address.',
    'zh-CN': '找不到主机名 {host}（DNS 解析失败）。请检查地址的拼写，或者改用服务器的 IP 地址。',
  },
  AALIS_PROVIDER_TEST_REFUSED: {
    en: 'Nothing answers at {host} (connection refused). Start the model server, or check the port in the address.',
    'zh-CN': '{host} 上没有服务在应答（连接被拒绝）。请先启动模型服务，或者检查地址里的端口。',
  },
  AALIS_PROVIDER_TEST_TLS: {
    en: 'The secure (TLS) connection to {host} failed. Use http:// when the server does not speak TLS; for a server with its own certificate, set caFile of this provider to its CA (PEM).',
    'zh-CN':
      '与 {host} 的安全连接（TLS）失败。服务器不支持 TLS 时请用 http://；服务器用自签证书时，请把这个服务的 caFile 设成它的 CA 证书（PEM）。',
  },
  AALIS_PROVIDER_TEST_UNREACHABLE: {
    en: 'The server at {host} could not be reached. Check that it runs and that this machine can reach it (firewall, proxy).',
    'zh-CN': '连不上 {host} 上的服务。请确认它在运行，并且这台机器能访问它（防火墙、代理）。',
  },
  AALIS_PROVIDER_TEST_AUTH: {
    en: 'The server refused the key (HTTP {status}). Check the API key, and that it belongs to this server.',
    'zh-CN': '服务器拒绝了密钥（HTTP {status}）。请检查 API 密钥，以及它是不是这个服务的。',
  },
  AALIS_PROVIDER_TEST_NOT_FOUND: {
    en: '{url} does not exist (HTTP 404). OpenAI-compatible servers usually expect the address to end in /v1, e.g. http://127.0.0.1:8080/v1.',
    'zh-CN': '{url} 不存在（HTTP 404）。OpenAI 兼容接口的地址通常以 /v1 结尾，例如 http://127.0.0.1:8080/v1。',
  },
  AALIS_PROVIDER_TEST_TIMEOUT: {
    en: 'The server at {host} did not answer within {seconds} s. Check that it runs and is not overloaded; a model that loads slowly may need another try.',
    'zh-CN': '{host} 上的服务在 {seconds} 秒内没有回应。请确认它在运行且没有过载；模型加载慢时可以再试一次。',
  },
  AALIS_PROVIDER_TEST_NO_MODELS: {
    en: 'The server lists no models. Load a model on the server (e.g. ollama pull qwen3:8b), or enter the model id to test.',
    'zh-CN':
      '服务器没有列出任何模型。请先在服务器上加载一个模型（例如 ollama pull qwen3:8b），或者填写要测试的模型 id。',
  },
  AALIS_PROVIDER_TEST_MODEL: {
    en: 'The model {model} is not offered by this server. Models offered: {available}.',
    'zh-CN': '这个服务器不提供模型 {model}。它提供的模型：{available}。',
  },
  AALIS_PROVIDER_TEST_CALL: {
    en: 'The models were listed, but the short call to {model} failed. See the cause below; the server’s own log may say more.',
    'zh-CN': '模型列表拿到了，但对 {model} 的简短调用失败了。原因见下；服务器自己的日志可能有更多信息。',
  },
  AALIS_PROVIDER_TEST_BUSY: {
    en: '{max} connection tests are running already. Try again when one has finished.',
    'zh-CN': '已经有 {max} 个连接测试在进行。请等其中一个结束后再试。',
    isRetryable: true,
  },
  AALIS_PROVIDER_TEST_FAILED: {
    en: 'The test failed. See the cause below.',
    'zh-CN': '测试失败。原因见下。',
  },
});
