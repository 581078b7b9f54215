// @aalis/api-tools: the tools service contract: tool registry, ToolCallContext, ToolResult, the tool:execute event,
// a JSON Schema validator for arguments and the enabledToolGroups session setting rules.
export { describeViolations } from './describe-violations.js';
export type { JsonObjectSchema, JsonSchema, JsonSchemaType } from './json-schema.js';
export {
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolCallContext,
  type ToolDefinition,
  type ToolHandlerResult,
  type ToolInfo,
  type ToolResult,
} from './tool.js';
export {
  emitToolExecuteFailure,
  type ToolExecuteEnd,
  type ToolExecuteEvent,
  type ToolExecuteStart,
} from './tool-execute-event.js';
export { ENABLED_TOOL_GROUPS_KEY, isGroupEnabled, TOOL_GROUP_PATTERN, toGroupSelection } from './tool-groups.js';
export { errorResult, isToolResult, toToolResult } from './tool-result.js';
export { toolsCatalogue } from './tools-catalogue.js';
export { toolsErrors } from './tools-errors.js';
export {
  type ExecuteRequest,
  type SessionScope,
  type ToolGroupSelection,
  type ToolsService,
  tools,
} from './tools-service.js';
export { jsonEqual, type SchemaViolation, validateJsonSchema } from './validate-json-schema.js';
