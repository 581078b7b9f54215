// Tokens that tool definitions add to a request, estimated in the form providers show them to the model
// (OpenAI's `namespace functions { type name = (_: { … }) => any; }`), not as raw JSON.
import { isPlainObject } from '@aalis/schema-message';
import { estimateTextTokens } from './estimate-tokens.js';

/** Once per request that carries tool definitions. */
export const TOOL_DEFINITIONS_OVERHEAD_TOKENS = 9;

/** A tool as a model request describes it (structurally the same as api-llm's LlmToolDefinition). */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters?: Readonly<Record<string, unknown>>;
}

interface CachedTool {
  name: string;
  description: string | undefined;
  parameters: ToolDefinition['parameters'];
  tokens: number;
}

const toolCache = new WeakMap<ToolDefinition, CachedTool>();
/**
 * Registries hand out a fresh definition object for every request, sharing the registered `parameters` object: the
 * estimate of a tool with parameters is kept per parameters object, under the name and description it was rendered
 * with, so a new turn's copies of the same tools are not rendered again. Bounded per object (a tool whose
 * description changes on every request keeps at most SHARED_LIMIT renderings). Tools without parameters are cached
 * per definition object.
 */
const byParameters = new WeakMap<object, { name: string; description: string | undefined; tokens: number }[]>();
const SHARED_LIMIT = 8;
const WRAPPER_TOKENS = estimateTextTokens('namespace functions {\n\n} // namespace functions');

/**
 * Tokens the tool definitions add to a request. Providers render tools as a compact TypeScript-like declaration
 * (OpenAI's `namespace functions { type name = (_: { … }) => any; }`), so each tool is estimated in that form,
 * not as raw JSON. Cached (the rendering depends on the name, the description and the parameters only). An empty
 * list costs nothing.
 */
export function estimateToolDefinitionTokens(tools: readonly ToolDefinition[]): number {
  if (tools.length === 0) return 0;
  let total = TOOL_DEFINITIONS_OVERHEAD_TOKENS + WRAPPER_TOKENS;
  // Indexed loops: this runs on every model call, on a young process unoptimised, where for…of and a find
  // callback allocate per step.
  for (let index = 0; index < tools.length; index++) total += toolTokens(tools[index]!);
  return total;
}

function toolTokens(tool: ToolDefinition): number {
  const { parameters } = tool;
  if (!parameters) {
    const cached = toolCache.get(tool);
    if (cached && cached.name === tool.name && cached.description === tool.description && !cached.parameters)
      return cached.tokens;
    const tokens = estimateTextTokens(renderToolDefinition(tool));
    toolCache.set(tool, { name: tool.name, description: tool.description, parameters, tokens });
    return tokens;
  }
  let entries = byParameters.get(parameters);
  // Strings compare by content, so a copy's name and description match whatever object they come in.
  for (let index = 0; entries !== undefined && index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.name === tool.name && entry.description === tool.description) return entry.tokens;
  }
  const tokens = estimateTextTokens(renderToolDefinition(tool));
  entries ??= [];
  if (entries.length >= SHARED_LIMIT) entries.length = 0;
  if (entries.length === 0) byParameters.set(parameters, entries);
  entries.push({ name: tool.name, description: tool.description, tokens });
  return tokens;
}

/** The declaration text a provider shows the model for one tool. Exported for tests and the benchmark. */
export function renderToolDefinition(tool: ToolDefinition): string {
  const lines: string[] = [];
  if (tool.description) lines.push(`// ${tool.description}`);
  const properties = objectProperties(tool.parameters);
  if (properties.length === 0) lines.push(`type ${tool.name} = () => any;`);
  else {
    lines.push(`type ${tool.name} = (_: {`);
    lines.push(renderProperties(tool.parameters ?? {}, 0));
    lines.push('}) => any;');
  }
  lines.push('');
  return lines.join('\n');
}

type Schema = Readonly<Record<string, unknown>>;

function objectProperties(schema: Schema | undefined): [string, Schema][] {
  const properties = schema?.properties;
  if (!isPlainObject(properties)) return [];
  return Object.entries(properties).filter((entry): entry is [string, Schema] => isPlainObject(entry[1]));
}

function renderProperties(schema: Schema, indent: number): string {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (const [name, property] of objectProperties(schema)) {
    if (typeof property.description === 'string' && indent < 2) lines.push(`${pad}// ${property.description}`);
    lines.push(`${pad}${name}${required.has(name) ? '' : '?'}: ${renderType(property, indent)},`);
  }
  return lines.join('\n');
}

function renderType(schema: Schema, indent: number): string {
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants))
    return variants
      .filter(isPlainObject)
      .map((variant) => renderType(variant, indent))
      .join(' | ');
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return isPlainObject(schema.items) ? `${renderType(schema.items, indent)}[]` : 'any[]';
    case 'object':
      return `{\n${renderProperties(schema, indent + 2)}\n${' '.repeat(indent)}}`;
    default:
      return 'any';
  }
}
