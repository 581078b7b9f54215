// Fixed texts of the OpenAI-compatible provider that reach users or the model.
import { defineCatalogue } from '@aalis/core';

export const openAiTexts = defineCatalogue({
  'zh-CN': {
    'llm-openai.attachment.described': '[附件 {name}:{description}]',
    'llm-openai.attachment.unseen': '[附件 {name} 没有发给模型:它不接受这种内容]',
    'llm-openai.phase.connect': '连接并发送请求',
    'llm-openai.phase.headers': '请求已发出,等待响应头',
    'llm-openai.phase.idle': '等待流的下一段',
    'llm-openai.stream.truncated': '流在回复完成之前就断了',
    'llm-openai.stream.malformed': 'SSE 数据不是合法的 JSON:{line}',
    'llm-openai.stream.overlong.output':
      '回复远远超出了请求的 max_tokens({maxTokens}):已超过 {limit} 个字符,连接已切断。服务端没有遵守长度上限,请检查它',
    'llm-openai.stream.overlong.reasoning':
      '思考内容远远超出了请求的 max_tokens({maxTokens}):已超过 {limit} 个字符,连接已切断。服务端没有遵守长度上限,请检查它',
    'llm-openai.stream.overlong.body':
      '响应远远超出了请求的 max_tokens({maxTokens}):已超过 {limit} 字节,连接已切断。服务端没有遵守长度上限,请检查它',
    'llm-openai.none': '(无)',
    'llm-openai.no-message': '(服务没有给出说明)',
    'llm-openai.proxy.refused':
      '代理 {proxy} 拒绝了请求(HTTP {status});请检查代理地址、凭据(http://user:password@host:port)以及代理是否允许访问该服务',
    'llm-openai.proxy.unreachable':
      '无法连接代理 {proxy}:{reason};请确认代理在运行,或检查 proxy 配置与 HTTPS_PROXY / HTTP_PROXY 环境变量',
    'llm-openai.tls.untrusted': '服务器证书未被接受({reason});若服务使用私有 CA,请把 caFile 设为该 CA 证书的 PEM 文件',
    'llm-openai.proxy.in-use': '经代理 {proxy} 连接 {baseUrl}(来自{source})',
    'llm-openai.proxy.from-config': '配置项 proxy',
    'llm-openai.proxy.from-env': '环境变量 {name}',
    'llm-openai.baseUrl.expected': '一个 http:// 或 https:// 地址,带主机名与有效端口,例如 https://api.openai.com/v1',
  },
  en: {
    'llm-openai.attachment.described': '[attachment {name}: {description}]',
    'llm-openai.attachment.unseen':
      '[attachment {name} was not sent to the model: it does not take this kind of content]',
    'llm-openai.phase.connect': 'connecting and sending the request',
    'llm-openai.phase.headers': 'the request was sent; waiting for the response headers',
    'llm-openai.phase.idle': 'waiting for the next part of the stream',
    'llm-openai.stream.truncated': 'the stream broke off before the response was complete',
    'llm-openai.stream.malformed': 'SSE data is not valid JSON: {line}',
    'llm-openai.stream.overlong.output':
      'the reply ran far past the max_tokens of the request ({maxTokens}): more than {limit} characters, so the connection was cut. The server does not respect the length limit; check it',
    'llm-openai.stream.overlong.reasoning':
      'the reasoning ran far past the max_tokens of the request ({maxTokens}): more than {limit} characters, so the connection was cut. The server does not respect the length limit; check it',
    'llm-openai.stream.overlong.body':
      'the response ran far past the max_tokens of the request ({maxTokens}): more than {limit} bytes, so the connection was cut. The server does not respect the length limit; check it',
    'llm-openai.none': '(none)',
    'llm-openai.no-message': '(the server gave no explanation)',
    'llm-openai.proxy.refused':
      'the proxy {proxy} refused the request (HTTP {status}); check the proxy address, its credentials (http://user:password@host:port) and whether it allows this server',
    'llm-openai.proxy.unreachable':
      'could not reach the proxy {proxy}: {reason}; check that the proxy is running, or the proxy setting and the HTTPS_PROXY / HTTP_PROXY environment variables',
    'llm-openai.tls.untrusted':
      'the server certificate was not accepted ({reason}); if the server uses a private CA, set caFile to that CA certificate (a PEM file)',
    'llm-openai.proxy.in-use': 'connecting to {baseUrl} through the proxy {proxy} (from {source})',
    'llm-openai.proxy.from-config': 'the config key proxy',
    'llm-openai.proxy.from-env': 'the environment variable {name}',
    'llm-openai.baseUrl.expected':
      'an http:// or https:// URL with a host and a valid port, e.g. https://api.openai.com/v1',
  },
});
