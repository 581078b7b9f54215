// The tools service contract: a registry of tools owned by the registering plugins, the definitions a session's
// model is offered, and execution that checks level and arguments before a handler runs.
import { type Disposer, defineService, type RegistrationOwner, type ServiceDescriptor } from '@aalis/core';
import type { Tool, ToolCallContext, ToolDefinition, ToolInfo, ToolResult } from './tool.js';

/** Which tool groups are enabled: '*' = every group; a list = those; [] = none. Ungrouped tools are always in. */
export type ToolGroupSelection = '*' | readonly string[];

/** Narrows `sessionGroups` to the settings layers of an entry (as api-session-settings reads them). */
export interface SessionScope {
  platform?: string;
  venue?: string;
}

export interface ExecuteRequest {
  name: string;
  /** The model's raw JSON text, or an already parsed object. '' counts as no arguments ({}). */
  arguments: string | Record<string, unknown>;
  context: ToolCallContext;
}

export interface ToolsService {
  /**
   * Registers a tool, owned by the caller (registrar: withdrawn when the caller deactivates). Throws
   * AALIS_TOOLS_NAME_INVALID, AALIS_TOOLS_DEFINITION_INVALID, or AALIS_TOOLS_DUPLICATE when another plugin holds
   * the name (the same plugin registering the name again replaces its tool).
   */
  register(tool: Tool, owner?: RegistrationOwner): Disposer;
  /** Every registered tool, ordered by name. */
  list(): ToolInfo[];
  /** The group names in use, ordered. */
  groups(): string[];
  /**
   * The definitions a model is offered, ordered by name: ungrouped tools always, grouped ones when their group is
   * enabled — for a session id, as sessionGroups(sessionId) says; or for an explicit selection.
   */
  definitions(
    scope: string | { sessionId: string; platform?: string; venue?: string } | { groups: ToolGroupSelection },
  ): Promise<ToolDefinition[]>;
  /**
   * The session's enabled groups from the session setting `enabledToolGroups` ('*' = all, [] = none). Without the
   * session settings service: '*'.
   */
  sessionGroups(sessionId: string, scope?: SessionScope): Promise<ToolGroupSelection>;
  /**
   * Runs one call. Emits tool:execute start, then end with the result. Checks, in this order: the tool exists; its
   * group is enabled in the session; every participant meets its level (judged with the authority service's
   * callerOf; without that service everyone is nobody: level 0, not an owner); the turn is not aborted; the
   * arguments are a JSON object valid against the schema. Never throws: an unknown tool, a tool of a
   * group disabled in the session, participants below the tool's level, arguments that are not a JSON object or
   * violate the schema (the handler does not run), an aborted signal, or a handler throw each give
   * `{ isError: true, code, content }` with a message that says how to fix it.
   */
  execute(request: ExecuteRequest): Promise<ToolResult>;
}

export const tools: ServiceDescriptor<ToolsService> = defineService<ToolsService>('tools', {
  registrars: ['register'],
});
