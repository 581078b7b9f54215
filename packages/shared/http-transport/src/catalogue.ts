// Fixed texts of the HTTP layer that reach users through the providers' errors and logs: what a call was doing when it
// timed out, why a stream or a proxy failed.
import { defineCatalogue } from '@aalis/core';

export const transportTexts = defineCatalogue({
  'zh-CN': {
    'http-transport.phase.connect': '连接并发送请求',
    'http-transport.phase.headers': '请求已发出，等待响应头',
    'http-transport.phase.idle': '等待流的下一段',
    'http-transport.stream.truncated': '流在回复完成之前就断了',
    'http-transport.stream.malformed': 'SSE 数据不是合法的 JSON：{line}',
    'http-transport.stream.overlong.output':
      '回复远远超出了请求的 max_tokens（{maxTokens}）：已超过 {limit} 个字符，连接已切断。服务端没有遵守长度上限，请检查它',
    'http-transport.stream.overlong.reasoning':
      '思考内容远远超出了请求的 max_tokens（{maxTokens}）：已超过 {limit} 个字符，连接已切断。服务端没有遵守长度上限，请检查它',
    'http-transport.stream.overlong.body':
      '响应远远超出了请求的 max_tokens（{maxTokens}）：已超过 {limit} 字节，连接已切断。服务端没有遵守长度上限，请检查它',
    'http-transport.none': '（无）',
    'http-transport.no-message': '（服务没有给出说明）',
    'http-transport.proxy.refused':
      '代理 {proxy} 拒绝了请求（HTTP {status}）；请检查代理地址、凭据（http://user:password@host:port）以及代理是否允许访问该服务',
    'http-transport.proxy.unreachable':
      '无法连接代理 {proxy}：{reason}；请确认代理在运行，或检查 proxy 配置与 HTTPS_PROXY / HTTP_PROXY 环境变量',
    'http-transport.tls.untrusted':
      '服务器证书未被接受（{reason}）；若服务使用私有 CA，请把 caFile 设为该 CA 证书的 PEM 文件',
    'http-transport.proxy.in-use': '经代理 {proxy} 连接 {baseUrl}（来自{source}）',
    'http-transport.proxy.from-config': '配置项 proxy',
    'http-transport.proxy.from-env': '环境变量 {name}',
  },
  en: {
    'http-transport.phase.connect': 'connecting and sending the request',
    'http-transport.phase.headers': 'the request was sent; waiting for the response headers',
    'http-transport.phase.idle': 'waiting for the next part of the stream',
    'http-transport.stream.truncated': 'the stream broke off before the response was complete',
    'http-transport.stream.malformed': 'SSE data is not valid JSON: {line}',
    'http-transport.stream.overlong.output':
      'the reply ran far past the max_tokens of the request ({maxTokens}): more than {limit} characters, so the connection was cut. The server does not respect the length limit; check it',
    'http-transport.stream.overlong.reasoning':
      'the reasoning ran far past the max_tokens of the request ({maxTokens}): more than {limit} characters, so the connection was cut. The server does not respect the length limit; check it',
    'http-transport.stream.overlong.body':
      'the response ran far past the max_tokens of the request ({maxTokens}): more than {limit} bytes, so the connection was cut. The server does not respect the length limit; check it',
    'http-transport.none': '(none)',
    'http-transport.no-message': '(the server gave no explanation)',
    'http-transport.proxy.refused':
      'the proxy {proxy} refused the request (HTTP {status}); check the proxy address, its credentials (http://user:password@host:port) and whether it allows this server',
    'http-transport.proxy.unreachable':
      'could not reach the proxy {proxy}: {reason}; check that the proxy is running, or the proxy setting and the HTTPS_PROXY / HTTP_PROXY environment variables',
    'http-transport.tls.untrusted':
      'the server certificate was not accepted ({reason}); if the server uses a private CA, set caFile to that CA certificate (a PEM file)',
    'http-transport.proxy.in-use': 'connecting to {baseUrl} through the proxy {proxy} (from {source})',
    'http-transport.proxy.from-config': 'the config key proxy',
    'http-transport.proxy.from-env': 'the environment variable {name}',
  },
});
