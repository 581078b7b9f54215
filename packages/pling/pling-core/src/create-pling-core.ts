// What every adapter's createPling shares: one page and one runtime wired together (the page's actions as tools,
// its snapshot as the per-turn prompt, one locale for both), the runtime created on first use so a dock's `config`
// property can still take part (the spec's third level of precedence), and a fan-out of runtime events for docks
// and host listeners. Framework-free; the adapters add mounting only.
import {
  type AgentConfig,
  type AgentEnv,
  type AgentRuntime,
  type AgentSession,
  type BudgetCheck,
  type Clock,
  callListener,
  createAgentRuntime,
  type HookRegistry,
  type LlmClient,
  type Locale,
  mergeAgentConfig,
  PlingError,
  type RuntimeEvent,
  resolveAgentConfig,
  textsFor,
} from '@plingjs/agent';
import type { ActionDefinition } from './action.js';
import { bundlerEnv } from './bundler-env.js';
import { PageError } from './errors.js';
import { ModelSettings, type ModelSettingsOptions } from './model-settings.js';
import { createPage, type Page, type StateGetter } from './page.js';
import { type PageCheckpointOptions, pageCheckpointOptions } from './page-checkpoint.js';
import type { PageEventListener } from './page-events.js';
import { clearConversation, toRuntimeOptions } from './runtime-options.js';
import { pageTexts } from './texts.js';

export interface PlingOptions {
  agent?: {
    /** Explicit configuration (the highest level of precedence, with a dock's `config` property). */
    config?: AgentConfig;
    /**
     * Environment variables (VITE_AGENT_BASE_URL, VITE_AGENT_MODEL …). Default: what the bundler compiled in —
     * Vite's `import.meta.env`, from `.env.local` and the other env files — so nothing needs passing by hand.
     * Give it outside Vite (or to ignore those files): e.g. `{ VITE_AGENT_BASE_URL: '/api/llm', … }`.
     */
    env?: AgentEnv;
    /** A custom or test model client (then baseUrl and apiKey are not needed). */
    llm?: LlmClient;
    hooks?: HookRegistry;
    /** Every session event and text delta of every session. */
    onEvent?: (event: RuntimeEvent) => void;
    clock?: Clock;
    /** A budget the runtime cannot see (e.g. a tenant's), asked before every model request; see BudgetCheck. */
    checkBudget?: BudgetCheck;
    /** With `config.continuity: true`: where checkpoints are kept (sessionStorage by default) and their bound. */
    checkpoint?: PageCheckpointOptions;
  };
  page?: {
    /** Shown at the top of the page snapshot. */
    title?: string;
    onEvent?: PageEventListener;
    now?: () => number;
  };
  /** Offer the built-in `handoff` action to the model. Default true. */
  handoffAction?: boolean;
  /** The model settings docks show: the models a person may choose, where the choice is kept. */
  modelSettings?: ModelSettingsOptions;
}

export interface PlingCore {
  /** Actions, state, confirmations and handoffs; its locale is the agent config's. */
  readonly page: Page;
  /** The configuration locale, shared by the page, the runtime and the docks' texts. */
  readonly locale: Locale;
  /**
   * The runtime, created on the first call with createPling's config and `overrides` (a dock's `config`
   * property) merged field by field (limits and retry item by item); later calls return the same runtime, so a
   * mounted runtime resolves its configuration once. Throws INVALID_CONFIG when `overrides` differ from the
   * configuration already resolved, or when they change `locale`.
   */
  runtime(overrides?: AgentConfig): AgentRuntime;
  /** Whether the runtime exists yet. */
  readonly started: boolean;
  /** Model, temperature and max output as a person chose them in a dock; read by every send(). */
  readonly modelSettings: ModelSettings;
  /** The session with this id (default 'default'), on the runtime (created if needed). */
  session(id?: string): AgentSession;
  /** Every runtime event (session events and text deltas); returns the remover. */
  onEvent(listener: (event: RuntimeEvent) => void): () => void;
  /** The same as `onEvent`: the spec's name for a host that renders its own UI (原生 JS、React). */
  onSessionEvent(listener: (event: RuntimeEvent) => void): () => void;
  /** Called once, when the runtime is created (hooks that follow the runtime without creating it); remover. */
  onStart(listener: () => void): () => void;
  /** Declares an action on the page (`page.register`, validated); returns its remover. */
  register<Args extends Record<string, unknown> = Record<string, unknown>>(action: ActionDefinition<Args>): () => void;
  /** Removes the page action with this id; whether one was removed. */
  unregister(id: string): boolean;
  /** Names a piece of state the model sees (`page.state`); returns its remover. */
  state(name: string, getter: StateGetter): () => void;
  /** What the built-in clear button does: reset the session, clear the queues, reset telemetry. */
  clear(sessionId?: string): void;
  /** Disposes the runtime (every run cancelled) and clears the queues. */
  dispose(): void;
}

export function createPlingCore(options: PlingOptions = {}): PlingCore {
  const given = options.agent ?? {};
  const agent = { ...given, env: given.env ?? bundlerEnv() };
  // Resolved now: a bad config fails at createPling, and the page is created in the config's locale.
  const { locale } = resolveAgentConfig({ config: agent.config, env: agent.env });
  const page = createPage({ ...options.page, locale });
  const modelSettings = new ModelSettings({
    ...options.modelSettings,
    locale,
    offered: options.modelSettings !== undefined,
    // The runtime's configuration once it exists (a dock's `config` included), else createPling's.
    config: () => runtime?.config ?? resolveAgentConfig({ config: agent.config, env: agent.env }),
  });
  const listeners = new Set<(event: RuntimeEvent) => void>();
  if (agent.onEvent) listeners.add(agent.onEvent);
  const startListeners = new Set<() => void>();
  let runtime: AgentRuntime | undefined;
  let resolvedWith: string | undefined;

  const start = (overrides?: AgentConfig): AgentRuntime => {
    const config = mergeAgentConfig(agent.config, overrides);
    const resolved = resolveAgentConfig({ config, env: agent.env });
    // The trace bound is a diagnostic switch, not part of the configuration a running runtime has fixed.
    const { trace: _trace, ...compared } = resolved;
    const key = JSON.stringify(compared);
    if (runtime) {
      // A dock's `debug` turns the trace on even when something else started the runtime first.
      if (overrides?.trace) runtime.trace.enable(overrides.trace);
      if (overrides !== undefined && key !== resolvedWith) {
        const fields = changedFields(JSON.parse(resolvedWith ?? '{}'), compared);
        throw new PageError('RUNTIME_ALREADY_STARTED', pageTexts(locale).errors.runtimeAlreadyStarted(fields));
      }
      return runtime;
    }
    if (config.locale !== undefined && config.locale !== locale) {
      throw new PlingError({
        code: 'INVALID_CONFIG',
        message: textsFor(locale).errors.invalidConfig(pageTexts(locale).errors.dockLocaleFixed),
      });
    }
    resolvedWith = key;
    runtime = createAgentRuntime({
      config,
      env: agent.env,
      llm: agent.llm,
      hooks: agent.hooks,
      clock: agent.clock,
      checkpoint: pageCheckpointOptions(page, agent.checkpoint),
      modelOverrides: () => modelSettings.overrides(),
      ...toRuntimeOptions(page, { config, env: agent.env, handoffAction: options.handoffAction }),
      ...(agent.checkBudget && { checkBudget: agent.checkBudget }),
      // One listener that throws is reported once; the others still hear every event and the run goes on.
      onEvent: (event) => {
        for (const listener of [...listeners]) {
          callListener(listener, event, { locale, redact: (text) => page.redactText(text) });
        }
      },
    });
    for (const listener of [...startListeners]) listener();
    return runtime;
  };
  const onEvent = (listener: (event: RuntimeEvent) => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };

  return {
    page,
    locale,
    modelSettings,
    runtime: start,
    get started() {
      return runtime !== undefined;
    },
    session: (id) => start().session(id),
    onEvent,
    onSessionEvent: onEvent,
    onStart(listener) {
      startListeners.add(listener);
      return () => {
        startListeners.delete(listener);
      };
    },
    register: (action) => page.register(action),
    unregister: (id) => page.unregister(id),
    state: (name, getter) => page.state(name, getter),
    clear(sessionId) {
      const current = start();
      clearConversation({ session: current.session(sessionId), page, telemetry: current.telemetry });
    },
    dispose() {
      runtime?.dispose();
      page.clearAll();
    },
  };
}

/** The dotted names of the fields whose values differ (`limits.maxTurns`, `model`), for RUNTIME_ALREADY_STARTED. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string {
  const names: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[key];
    const b = after[key];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
      const inner = changedFields(a as Record<string, unknown>, b as Record<string, unknown>);
      names.push(...inner.split(', ').map((name) => `${key}.${name}`));
    } else {
      names.push(key);
    }
  }
  return names.join(', ');
}
