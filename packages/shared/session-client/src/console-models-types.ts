// What the console's model, platform and persona requests carry (docs/session-protocol.md 「Models, platforms and
// personas」): the configured model providers with their keys masked, a connection test's outcome, the per-model
// facts, every platform adapter's live state, and personas. Owner-only, like every admin request.

/** The provider kinds the console configures: an OpenAI-compatible endpoint, or the Anthropic Messages API. */
export type ProviderKind = 'openai' | 'anthropic';

/** Prices per million tokens (as in plugins.llm-*.models[].prices). */
export interface ModelPricesView {
  promptPerMillion: number;
  completionPerMillion: number;
  cachedPromptPerMillion?: number;
  cacheWritePromptPerMillion?: number;
  currency?: string;
}

/** The facts of a model that people edit: what it can see, how it thinks, how much it holds and costs. */
export interface ModelFactsView {
  /** Display name. */
  name?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  vision?: boolean;
  /** OpenAI-compatible models: the thinking levels it offers (ids and names) and the default; null = none. */
  thinking?: { levels: { id: string; name: string }[]; default: string } | null;
  prices?: ModelPricesView | null;
}

/** One model of a provider as it runs now, with whether the configuration has an entry for it. */
export interface ProviderModelView {
  /** `<provider instance id>/<model id>`, what the default-model preference and sessions name. */
  id: string;
  /** The model id as the server knows it. */
  model: string;
  name: string;
  contextWindow: number;
  maxOutputTokens: number;
  vision: boolean;
  tools: boolean;
  thinking?: { levels: { id: string; name: string }[]; default: string };
  prices?: ModelPricesView;
  /** The configuration has an entry for it (models[]): its facts were set, not only listed by the server. */
  configured: boolean;
}

export interface ProviderView {
  kind: ProviderKind;
  /** The provider instance id: the first part of its model ids (`openai`, `anthropic`). */
  id: string;
  /** The configuration enables it (an endpoint / a key is set). */
  configured: boolean;
  /** The API root, without credentials written into it. */
  baseUrl?: string;
  /** Whether a key is stored (its value never leaves the host: shown as the mask). */
  apiKeySet: boolean;
  /** Extra headers, each value masked. */
  headers: Record<string, string>;
  /** Its plugin's state when it runs: active, pending, error (with `error`). */
  state?: string;
  error?: string;
  models: ProviderModelView[];
  /** Keys an environment variable sets (they win over what the console writes), e.g. `llm.baseUrl`. */
  overriddenBy?: string[];
}

/** Where a connection test stopped. */
export type ProviderTestStep = 'address' | 'models' | 'call';

export interface ProviderTestResult {
  ok: boolean;
  /** The model ids the server lists (Anthropic: the configured ones). */
  models: string[];
  /** The model the short call went to. */
  model?: string;
  /** What it answered (at most 200 characters). */
  reply?: string;
  /** How long the test took. */
  ms: number;
  /** What failed and how to fix it, in the connection's locale. */
  problem?: { step: ProviderTestStep; code: string; message: string; cause?: string };
}

/** A platform adapter's live connection state (@aalis/api-platform's PlatformStateEntry, worded for people). */
export interface PlatformStateView {
  id: string;
  type: string;
  /** The adapter's package name. */
  plugin: string;
  /** Its key under `plugins:` (`platform-telegram`), when the host knows it. */
  alias?: string;
  status: 'connecting' | 'connected' | 'reconnecting' | 'refused' | 'standby' | 'stopped';
  since: number;
  nextAttemptAt?: number;
  /** The configuration key to fix (full path). */
  configKey?: string;
  error?: { code: string; message: string };
  endpoint?: string;
}

export interface PersonaView {
  id: string;
  name: string;
  prompt: string;
  /** JSON Schema her replies follow, when set. */
  structuredOutput?: Record<string, unknown>;
  /** The file in the personas directory. */
  file?: string;
  /** Sessions that select none use it. */
  isDefault: boolean;
  /** Changes whenever the file does: pass it back to save or delete. */
  revision: string;
}

/** A persona file that could not be loaded (its problem in the connection's locale). */
export interface PersonaProblemView {
  code: string;
  message: string;
}

export interface ConsoleModelsRequests {
  'admin.providers.list': {
    params: Record<string, never>;
    /** `revision`: the configuration's, to pass back to save/delete. */
    result: { providers: ProviderView[]; revision: string; source: 'file' | 'database' };
  };
  'admin.providers.test': {
    /** Left-out fields (and an apiKey sent back as the mask) use the stored ones. */
    params: { kind: ProviderKind; baseUrl?: string; apiKey?: string; headers?: Record<string, string>; model?: string };
    result: ProviderTestResult;
  };
  'admin.providers.save': {
    /** An apiKey or header value equal to the mask keeps the stored one; '' removes it. */
    params: {
      kind: ProviderKind;
      baseUrl?: string;
      apiKey?: string;
      headers?: Record<string, string>;
      revision: string;
    };
    result: { provider: ProviderView; revision: string };
  };
  'admin.providers.delete': { params: { kind: ProviderKind; revision: string }; result: { revision: string } };
  'admin.models.save': {
    /** `facts` null removes the model's entry (back to the server's listing and the defaults). */
    params: { kind: ProviderKind; model: string; facts: ModelFactsView | null; revision: string };
    result: { provider: ProviderView; revision: string };
  };
  'admin.platforms': { params: Record<string, never>; result: { platforms: PlatformStateView[] } };
  'admin.personas.list': {
    params: Record<string, never>;
    result: { personas: PersonaView[]; problems: PersonaProblemView[]; directory?: string };
  };
  /** Persona requests name it `personaId`: a frame's `id` is the request's own. */
  'admin.personas.get': { params: { personaId: string }; result: { persona: PersonaView } };
  'admin.personas.save': {
    /** `revision` absent: a new persona (refused when the id exists); present: must match the file's. */
    params: {
      personaId: string;
      name: string;
      prompt: string;
      structuredOutput?: Record<string, unknown> | null;
      revision?: string;
    };
    result: { persona: PersonaView };
  };
  'admin.personas.delete': { params: { personaId: string; revision: string }; result: { deleted: boolean } };
}

/** The console-models requests (every one owner-only). */
export const CONSOLE_MODELS_REQUESTS = [
  'admin.providers.list',
  'admin.providers.test',
  'admin.providers.save',
  'admin.providers.delete',
  'admin.models.save',
  'admin.platforms',
  'admin.personas.list',
  'admin.personas.get',
  'admin.personas.save',
  'admin.personas.delete',
] as const satisfies readonly (keyof ConsoleModelsRequests)[];
