// @aalis/plugin-mcp: MCP servers' tools for the model.
export { type McpConfig, type McpServerConfig, mcpConfigSchema, mcpServerSchema } from './mcp-config.js';
export { mcpErrors } from './mcp-errors.js';
export { default, serverConfigProblem } from './mcp-plugin.js';
export { toToolResultFromMcp } from './mcp-result.js';
export { mcpToolGroup, mcpToolName } from './mcp-tool-name.js';
