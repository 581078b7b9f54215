// Settings read once when a turn opens (plugin-agent.zh.md 「新消息怎么处理」 设置读一次): model, thinking level,
// tool-iteration limit, history limit and persona, by the opening input's entry platform.
import type { ModelRef } from '@aalis/api-agent';
import { effectiveThinkingLevel, findModel, llm, type ResolvedModel, resolveModel } from '@aalis/api-llm';
import type { AgentDeps } from '../agent-deps.js';
import type { TurnContext, TurnSettings } from './turn-state.js';

export const FIELD = {
  llm: 'llm',
  think: 'think',
  maxToolIterations: 'maxToolIterations',
  historyLimit: 'historyLimit',
} as const;

/** The model a session uses now: its `llm` setting > this plugin's preference > the global one > priority > order. */
export function resolveSessionModel(deps: AgentDeps, requested: string | undefined): ResolvedModel | undefined {
  const effective = deps.services.preference(llm.name, deps.instanceId);
  return resolveModel({
    providers: deps.services.providers(llm),
    requested,
    pluginPreference: effective?.scope === 'plugin' ? effective.value : undefined,
    globalPreference: deps.services.preferences().global[llm.name],
  });
}

export function modelRefText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { provider, model } = value as Partial<ModelRef>;
  return typeof provider === 'string' && provider !== '' && typeof model === 'string' && model !== ''
    ? `${provider}/${model}`
    : undefined;
}

/** `<provider instance id>/<model id>` as an llm-ref (the model id may itself contain '/'); undefined otherwise. */
export function parseModelRef(value: string | undefined): ModelRef | undefined {
  if (value === undefined) return undefined;
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return undefined;
  return { provider: value.slice(0, slash), model: value.slice(slash + 1) };
}

/** Whose settings a turn (or a token:request snapshot) reads: the session, its entry platform and venue. */
export interface SettingsSource {
  sessionId: string;
  platform: string;
  venue: string | undefined;
}

async function setting(deps: AgentDeps, source: SettingsSource, key: string): Promise<unknown> {
  if (!deps.sessionFields.available || !deps.sessionFields.use.field(key)) return undefined;
  const scope = { sessionId: source.sessionId, platform: source.platform, venue: source.venue };
  const effective = await deps.sessionFields.use.get(scope, key);
  // No layer set it: the plugin's own config (「会话设置不在场时只取插件配置」) comes before the field default.
  if (effective.layer === 'unset' || effective.layer === 'default') return undefined;
  // The global layer of 「模型」 is this plugin's llm preference itself, which resolveSessionModel applies as one
  // (so a preference pointing at a missing model warns as this plugin's preference).
  if (key === FIELD.llm && effective.layer === 'global') return undefined;
  return effective.value;
}

/** Reads the settings of a turn opening (or of a snapshot) once: by the opening input's platform and venue. */
export async function readTurnSettings(deps: AgentDeps, source: SettingsSource): Promise<TurnSettings | undefined> {
  const requested = modelRefText(await setting(deps, source, FIELD.llm));
  const resolved = resolveSessionModel(deps, requested);
  if (!resolved) return undefined;
  if (resolved.fallback) deps.fallbacks.report(resolved.fallback);
  const think = (await setting(deps, source, FIELD.think)) ?? deps.config.think;
  const maxToolIterations = (await setting(deps, source, FIELD.maxToolIterations)) ?? deps.config.maxToolIterations;
  const historyLimit = (await setting(deps, source, FIELD.historyLimit)) ?? deps.config.historyLimit;
  const persona = deps.persona.available
    ? await deps.persona.use.forSession({
        sessionId: source.sessionId,
        platform: source.platform,
        venue: source.venue,
      })
    : undefined;
  return {
    model: resolved.model,
    thinkingLevel: effectiveThinkingLevel({
      model: resolved.model,
      requested: typeof think === 'string' ? think : undefined,
    }),
    maxToolIterations: typeof maxToolIterations === 'number' ? maxToolIterations : undefined,
    historyLimit: typeof historyLimit === 'number' ? historyLimit : 0,
    personaPrompt: persona?.prompt,
    structuredOutput: persona?.structuredOutput,
  };
}

/** The provider serving the turn's model now (it may have been re-registered since the turn opened). */
export function resolveTurnModel(
  deps: AgentDeps,
  state: Pick<TurnContext, 'settings'>,
): NonNullable<ReturnType<typeof findModel>> {
  const found = findModel({ providers: deps.services.providers(llm), value: state.settings.model.id });
  if (!found) throw new Error(`model ${state.settings.model.id} is no longer available`);
  return found;
}
