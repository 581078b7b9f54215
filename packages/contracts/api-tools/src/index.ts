// @aalis/api-tools: the tools service contract: tool registry, ToolCallContext, ToolResult, the tool:execute event,
// the JSON Schema validator for arguments (re-exported from @aalis/schema-message, where it lives) and the
// enabledToolGroups session setting rules.

export type { JsonObjectSchema, JsonSchema, JsonSchemaType } from '@aalis/schema-message';
export { jsonEqual, type SchemaViolation, validateJsonSchema } from '@aalis/schema-message';
export { closedParameters } from './closed-parameters.js';
export { describeViolations } from './describe-violations.js';
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
