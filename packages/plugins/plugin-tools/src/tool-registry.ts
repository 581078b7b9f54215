// The tools service implementation: an in-memory registry owned by the registering plugins, and execution that
// checks, in order: the tool exists, its group is enabled in the session, the participants meet its level, the
// turn is not aborted, the arguments are a JSON object matching the schema — then runs the handler.
import type { AuthorityService } from '@aalis/api-authority';
import { isRequiredLevel } from '@aalis/api-authority';
import {
  describeViolations,
  type ExecuteRequest,
  errorResult,
  isGroupEnabled,
  type SessionScope,
  TOOL_GROUP_PATTERN,
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolDefinition,
  type ToolGroupSelection,
  type ToolInfo,
  type ToolResult,
  type ToolsService,
  toGroupSelection,
  toolsErrors,
  toToolResult,
  validateJsonSchema,
} from '@aalis/api-tools';
import type { Disposer, Events, Locale, Logger, RegistrationOwner } from '@aalis/core';
import { AalisError, reasonOf } from '@aalis/core';
import { checkLevel } from './check-level.js';
import { parseArguments } from './parse-arguments.js';

export interface ToolRegistryOptions {
  events: Pick<Events, 'emit'>;
  locale: Locale;
  logger: Logger;
  /** The authority service now, if present. */
  authority(): AuthorityService | undefined;
  /**
   * The raw `enabledToolGroups` setting value for a session; `undefined` when the settings service is absent (or
   * the value cannot be read), which means every group.
   */
  readGroups(sessionId: string, scope: SessionScope): Promise<unknown>;
  now?(): number;
}

interface Entry {
  tool: Tool;
  plugin: string;
  token: symbol;
}

export class ToolRegistry implements ToolsService {
  private readonly entries = new Map<string, Entry>();
  /** The entries by name, sorted when first needed after a change: every turn asks for the definitions. */
  private sorted: readonly Entry[] | undefined;
  private readonly now: () => number;
  private warnedInvalidGroups = false;

  constructor(private readonly options: ToolRegistryOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  register(tool: Tool, owner?: RegistrationOwner): Disposer {
    assertValidTool(tool);
    const plugin = owner?.instanceId ?? '';
    const existing = this.entries.get(tool.name);
    if (existing && existing.plugin !== plugin) {
      throw toolsErrors.AALIS_TOOLS_DUPLICATE({ name: tool.name, owner: existing.plugin || '(outside a plugin)' });
    }
    const token = Symbol(tool.name);
    this.entries.set(tool.name, { tool, plugin, token });
    this.sorted = undefined;
    return () => {
      // Only the current registration withdraws the name (a replaced one leaves its replacement alone).
      if (this.entries.get(tool.name)?.token === token) {
        this.entries.delete(tool.name);
        this.sorted = undefined;
      }
    };
  }

  private byName(): readonly Entry[] {
    this.sorted ??= [...this.entries.values()].sort((a, b) => compare(a.tool.name, b.tool.name));
    return this.sorted;
  }

  list(): ToolInfo[] {
    return this.byName().map(({ tool, plugin }) => {
      const info: ToolInfo = {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        level: tool.level ?? 0,
        plugin,
      };
      if (tool.group !== undefined) info.group = tool.group;
      return info;
    });
  }

  groups(): string[] {
    const groups = new Set<string>();
    for (const { tool } of this.entries.values()) if (tool.group !== undefined) groups.add(tool.group);
    return [...groups].sort(compare);
  }

  async definitions(
    scope: string | { sessionId: string; platform?: string; venue?: string } | { groups: ToolGroupSelection },
  ): Promise<ToolDefinition[]> {
    const selection =
      typeof scope === 'string'
        ? await this.sessionGroups(scope)
        : 'groups' in scope
          ? scope.groups
          : await this.sessionGroups(scope.sessionId, { platform: scope.platform, venue: scope.venue });
    // Straight from the entries: no ToolInfo per tool first.
    const definitions: ToolDefinition[] = [];
    for (const { tool } of this.byName()) {
      if (isGroupEnabled(selection, tool.group)) {
        definitions.push({ name: tool.name, description: tool.description, parameters: tool.parameters });
      }
    }
    return definitions;
  }

  async sessionGroups(sessionId: string, scope: SessionScope = {}): Promise<ToolGroupSelection> {
    const raw = await this.options.readGroups(sessionId, scope);
    if (raw === undefined) return '*';
    const selection = toGroupSelection(raw);
    if (selection !== undefined) return selection;
    if (!this.warnedInvalidGroups) {
      this.warnedInvalidGroups = true;
      this.options.logger.warn('enabledToolGroups holds an invalid value; using every group', { sessionId });
    }
    return '*';
  }

  async execute(request: ExecuteRequest): Promise<ToolResult> {
    const { name, context } = request;
    const base = { name, callId: context.callId, turnId: context.turnId, sessionId: context.sessionId };
    const started = this.now();
    this.options.events.emit('tool:execute', { phase: 'start', ...base, arguments: request.arguments });
    let result: ToolResult;
    try {
      result = await this.run(request);
    } catch (error) {
      // run() turns every expected failure into a result; this is a bug guard so the agent never sees a throw.
      result = errorResult(error, this.options.locale);
    }
    const durationMs = Math.max(0, this.now() - started);
    this.options.events.emit('tool:execute', { phase: 'end', ...base, result, durationMs });
    return result;
  }

  private async run({ name, arguments: raw, context }: ExecuteRequest): Promise<ToolResult> {
    const locale = this.options.locale;
    const entry = this.entries.get(name);
    if (!entry) return errorResult(toolsErrors.AALIS_TOOLS_UNKNOWN({ name }), locale);
    const { tool } = entry;
    if (tool.group !== undefined) {
      const selection = await this.sessionGroups(context.sessionId, { platform: context.platform });
      if (!isGroupEnabled(selection, tool.group)) {
        return errorResult(toolsErrors.AALIS_TOOLS_GROUP_DISABLED({ name, group: tool.group }), locale);
      }
    }
    const level = checkLevel({
      required: tool.level,
      participants: context.participants,
      authority: this.options.authority(),
    });
    if (!level.ok) {
      const required = tool.level === 'owner' ? 'owner' : String(tool.level);
      return errorResult(toolsErrors.AALIS_TOOLS_LEVEL_DENIED({ name, required, actual: level.actual }), locale);
    }
    if (context.signal.aborted) return errorResult(toolsErrors.AALIS_TOOLS_ABORTED({ name }), locale);
    const parsed = parseArguments({ name, raw });
    if (!parsed.ok) return errorResult(parsed.error, locale);
    const violations = validateJsonSchema(tool.parameters, parsed.value);
    if (violations.length > 0) {
      const text = describeViolations({ violations, locale });
      return errorResult(toolsErrors.AALIS_TOOLS_ARGUMENTS_INVALID({ name, violations: text }), locale);
    }
    try {
      return toToolResult(await tool.handler(parsed.value, context));
    } catch (error) {
      const reason = reasonOf(error, locale);
      this.options.logger.warn('tool handler failed', { tool: name, sessionId: context.sessionId, error: reason });
      const failure = toolsErrors.AALIS_TOOLS_HANDLER_FAILED({ name, reason });
      return {
        content: failure.localized(locale),
        isError: true,
        code: AalisError.isInstance(error) ? error.code : failure.code,
      };
    }
  }
}

function assertValidTool(tool: Tool): void {
  const name = typeof tool?.name === 'string' ? tool.name : String(tool?.name);
  if (typeof tool?.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) {
    throw toolsErrors.AALIS_TOOLS_NAME_INVALID({ name });
  }
  const invalid = (reason: string) => toolsErrors.AALIS_TOOLS_DEFINITION_INVALID({ name, reason });
  if (typeof tool.description !== 'string' || tool.description.trim() === '') {
    throw invalid('`description` must be a non-empty string telling the model what the tool does.');
  }
  const parameters = tool.parameters as unknown;
  if (typeof parameters !== 'object' || parameters === null || (parameters as { type?: unknown }).type !== 'object') {
    throw invalid('`parameters` must be a JSON Schema object with type "object".');
  }
  if (typeof tool.handler !== 'function') throw invalid('`handler` must be a function.');
  if (tool.group !== undefined && (typeof tool.group !== 'string' || !TOOL_GROUP_PATTERN.test(tool.group))) {
    throw invalid('`group` must be 1–64 characters of a-z, A-Z, 0-9, "_", "-", ".", ":".');
  }
  if (tool.level !== undefined && !isRequiredLevel(tool.level)) {
    throw invalid('`level` must be an integer ≥ 0 or "owner".');
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
