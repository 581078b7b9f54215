// Coded errors of the MCP client. Header values and environment values never appear in them.
import { defineErrors } from '@aalis/core';

export const mcpErrors = defineErrors({
  AALIS_MCP_SERVER_CONFIG_INVALID: {
    en: 'plugins.mcp.servers.{server}: {problem}. This server is not started; the others are.',
    'zh-CN': 'plugins.mcp.servers.{server}：{problem}。这个服务器没有启动，其余照常。',
  },
  AALIS_MCP_SERVER_UNAVAILABLE: {
    en: 'MCP server "{server}" is not connected ({reason}); its tools are unavailable until it is back. It is restarted automatically.',
    'zh-CN': 'MCP 服务器「{server}」没有连上（{reason}）；在它恢复之前它的工具不可用。会自动重启。',
    isRetryable: true,
  },
  AALIS_MCP_TOOL_FAILED: {
    en: 'MCP tool {tool} of server "{server}" failed: {reason}',
    'zh-CN': 'MCP 服务器「{server}」的工具 {tool} 调用失败：{reason}',
  },
  AALIS_MCP_TOOL_TIMEOUT: {
    en: 'MCP tool {tool} of server "{server}" did not answer within {timeoutMs} ms; the call was cancelled.',
    'zh-CN': 'MCP 服务器「{server}」的工具 {tool} 在 {timeoutMs} 毫秒内没有回应，已取消这次调用。',
  },
});
