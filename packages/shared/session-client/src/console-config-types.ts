// What the console's configuration requests carry (docs/session-protocol.md 「Plugin settings and audit」): a plugin's
// settings schema with its values (secrets masked), the result of a change applied live, and the audit log.
// Owner-only, like every admin request.

/** What a secret is shown as; sent back unchanged, the stored value is kept. */
export const CONFIG_SECRET_MASK = '••••••••';

/** A settings schema as @aalis/core's Schema.toJSON() describes it (JSON). */
export interface SchemaView {
  type: 'string' | 'number' | 'boolean' | 'enum' | 'array' | 'object' | 'record' | 'unknown' | (string & {});
  description?: string;
  /** 'password': a secret (masked); 'textarea': a long text. */
  widget?: 'textarea' | 'password';
  default?: unknown;
  optional?: boolean;
  values?: readonly unknown[];
  min?: number;
  max?: number;
  integer?: boolean;
  items?: SchemaView;
  fields?: Record<string, SchemaView>;
}

/** One problem of a value the schema refuses, dotted path from the configuration's root (plugins.agent.x). */
export interface ConfigIssueView {
  path: string;
  expected: string;
  received: string;
}

export interface PluginConfigView {
  /** The plugin instance id. */
  plugin: string;
  /** The section's key in the configuration: plugins.<alias>. */
  key: string;
  schema: SchemaView;
  /** The section as stored (no defaults filled in), secrets replaced by CONFIG_SECRET_MASK. */
  values: Record<string, unknown>;
  /** Dotted paths inside `values` that are secrets. */
  secrets: string[];
  /** Pass back to admin.config.set: a change made meanwhile (by hand too) is refused. */
  revision: string;
  /** aalis.config.yaml, or the PostgreSQL database every process shares. */
  source: 'file' | 'database';
}

/** A key a change made, as the audit log and a change's result show it (secrets as CONFIG_SECRET_MASK). */
export interface ConfigChangeView {
  key: string;
  old?: unknown;
  new?: unknown;
  secret: boolean;
}

export interface ConfigSetResult {
  revision: string;
  changes: ConfigChangeView[];
  /** The plugin's state after the change (active, or pending with what it waits for). */
  plugin: { id: string; state: string; missing: string[]; error?: string };
}

export interface AuditEntryView {
  id: number;
  at: number;
  /** Who: the account (platform webui). */
  actor: { platform: string; userId: string };
  /** The request that made the change: config.set, plugin.enable, providers.save … */
  action: string;
  key: string;
  old?: unknown;
  new?: unknown;
  secret: boolean;
}

export interface ConfigRequests {
  'admin.config.get': { params: { plugin: string }; result: PluginConfigView };
  'admin.config.set': {
    params: { plugin: string; values: Record<string, unknown>; revision: string };
    result: ConfigSetResult;
  };
  'admin.plugins.enable': { params: { plugin: string; revision?: string }; result: ConfigSetResult };
  'admin.plugins.disable': { params: { plugin: string; revision?: string }; result: ConfigSetResult };
  'admin.audit.list': {
    /** At most `limit` (default 50, at most 200) entries older than entry id `before`, newest first. */
    params: { limit?: number; before?: number };
    result: { entries: AuditEntryView[]; more: boolean };
  };
}

export const CONFIG_REQUESTS = [
  'admin.config.get',
  'admin.config.set',
  'admin.plugins.enable',
  'admin.plugins.disable',
  'admin.audit.list',
] as const;
