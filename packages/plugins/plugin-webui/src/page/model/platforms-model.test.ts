import { describe, expect, it } from 'vitest';
import { mcpFormOf, mcpServerOf } from './platforms-model.js';

describe('the MCP server form', () => {
  it('shows a stored stdio server as its command line and saves it back the same', () => {
    const stored = { command: 'node', args: ['server.js', 'stdio'], env: { A: '1' } };
    const form = mcpFormOf(stored);
    expect(form).toEqual({ command: 'node server.js stdio', url: '' });
    expect(mcpServerOf(form.command, form.url)).toEqual({ command: 'node', args: ['server.js', 'stdio'] });
  });

  it('shows an HTTP server as its URL; the URL wins over a command', () => {
    expect(mcpFormOf({ url: 'http://127.0.0.1:3000/mcp' })).toEqual({ command: '', url: 'http://127.0.0.1:3000/mcp' });
    expect(mcpServerOf('node x.js', ' http://127.0.0.1:3000/mcp ')).toEqual({ url: 'http://127.0.0.1:3000/mcp' });
  });

  it('gives an empty form for an entry that is not an object, and no server for an empty form', () => {
    expect(mcpFormOf(undefined)).toEqual({ command: '', url: '' });
    expect(mcpFormOf({ command: 3, args: 'x' })).toEqual({ command: '', url: '' });
    expect(mcpServerOf('   ', '')).toBeUndefined();
  });
});
