// The name a server's tool is offered under: mcp__<server>__<tool>, kept within the 64 characters model APIs
// accept (characters outside [a-zA-Z0-9_-] become '_'; an overlong name keeps its start and a short hash).

const UNSAFE = /[^a-zA-Z0-9_-]/g;

export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool.replace(UNSAFE, '_')}`;
  if (name.length <= 64) return name;
  return `${name.slice(0, 55)}_${hash(name)}`;
}

/** The tool group of a server's tools (selected per session with enabledToolGroups). */
export function mcpToolGroup(server: string): string {
  return `mcp:${server}`;
}

/** 8 hex digits of FNV-1a: enough to keep two long names apart. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value.toString(16).padStart(8, '0');
}
