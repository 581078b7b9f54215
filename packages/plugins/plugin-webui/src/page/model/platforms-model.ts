// The 平台/Platforms section's state: every platform adapter's live state (admin.platforms) and the MCP servers'
// (admin.mcp), refreshed every few seconds while shown, and the Telegram, OneBot and MCP sections as stored
// (admin.config.get, secrets masked) with the actions that save them (admin.config.set: applied live, audited).
import type { McpServerView, PlatformStateView, SessionClient } from '@aalis/session-client';
import { StateStore } from './store.js';

/** The adapters the section has forms for, by their plugin instance id. */
export const PLATFORM_PLUGINS = {
  telegram: '@aalis/plugin-platform-telegram',
  onebot: '@aalis/plugin-platform-onebot',
  mcp: '@aalis/plugin-mcp',
} as const;
export type PlatformFormKind = keyof typeof PLATFORM_PLUGINS;

export interface StoredSection {
  values: Record<string, unknown>;
  revision: string;
}

export interface PlatformsSnapshot {
  platforms: readonly PlatformStateView[];
  mcp: readonly McpServerView[];
  sections: Partial<Record<PlatformFormKind, StoredSection>>;
  busy: boolean;
  error?: string;
  saved?: PlatformFormKind;
}

/** An MCP server entry from the form: a command line (stdio) or a URL (HTTP). */
export function mcpServerOf(command: string, url: string): Record<string, unknown> | undefined {
  if (url.trim() !== '') return { url: url.trim() };
  const parts = command
    .trim()
    .split(/\s+/)
    .filter((part) => part !== '');
  if (parts.length === 0) return undefined;
  return { command: parts[0], ...(parts.length > 1 ? { args: parts.slice(1) } : {}) };
}

/** The form's command line and URL of a stored MCP server entry (the reverse of mcpServerOf). */
export function mcpFormOf(entry: unknown): { command: string; url: string } {
  const server = (entry && typeof entry === 'object' ? entry : {}) as {
    command?: unknown;
    args?: unknown;
    url?: unknown;
  };
  const args = Array.isArray(server.args) ? server.args.filter((arg) => typeof arg === 'string') : [];
  return {
    command: typeof server.command === 'string' ? [server.command, ...args].join(' ') : '',
    url: typeof server.url === 'string' ? server.url : '',
  };
}

export class PlatformsModel extends StateStore<PlatformsSnapshot> {
  constructor(
    private readonly client: SessionClient,
    private readonly describeError: (error: unknown) => string,
  ) {
    super({ platforms: [], mcp: [], sections: {}, busy: false });
  }

  /** The live states only (cheap; polled while the section is shown). */
  async refresh(): Promise<void> {
    try {
      const [platforms, mcp] = await Promise.all([
        this.client.request('admin.platforms', {}),
        this.client.request('admin.mcp', {}),
      ]);
      this.set({ platforms: platforms.platforms, mcp: mcp.servers });
    } catch (error) {
      this.set({ error: this.describeError(error) });
    }
  }

  async load(): Promise<void> {
    await this.refresh();
    const sections: Partial<Record<PlatformFormKind, StoredSection>> = {};
    for (const kind of Object.keys(PLATFORM_PLUGINS) as PlatformFormKind[]) {
      try {
        const read = await this.client.request('admin.config.get', { plugin: PLATFORM_PLUGINS[kind] });
        sections[kind] = { values: read.values, revision: read.revision };
      } catch {
        // A host without that plugin slot: its form is not shown.
      }
    }
    this.set({ sections });
  }

  /** Saves a section with `patch` over what is stored (secrets left as the mask keep their stored value). */
  async save(kind: PlatformFormKind, values: Record<string, unknown>): Promise<boolean> {
    const stored = this.state.sections[kind];
    if (!stored) return false;
    this.set({ busy: true, error: undefined, saved: undefined });
    try {
      await this.client.request('admin.config.set', {
        plugin: PLATFORM_PLUGINS[kind],
        values,
        revision: stored.revision,
      });
      await this.load();
      this.set({ busy: false, saved: kind });
      return true;
    } catch (error) {
      this.set({ busy: false, error: this.describeError(error) });
      await this.load();
      return false;
    }
  }
}
