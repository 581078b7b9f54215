// Agent configuration: the defaults table, the precedence defaults < environment < explicit config (limits and
// retry merged item by item), validation with coded errors, and readiness (NOT_CONFIGURED).
import type { BudgetConfig } from './budget.js';
import { PlingError } from './errors.js';
import { DEFAULT_LOCALE, type ErrorTexts, type Locale, textsFor } from './texts.js';

export type Approval = 'always' | 'danger' | 'never';

export interface RetryConfig {
  /** Retries after the first failure, 0–5. */
  maxRetries: number;
  /** First backoff wait; attempt n waits baseDelayMs × 2^n. */
  baseDelayMs: number;
  /** Upper bound of a backoff wait. */
  maxDelayMs: number;
}

export interface LimitsConfig {
  /** Model turns within one send(); a turn is one model reply and its tool calls. */
  maxTurns: number;
  /** History budget for the compaction decision (page context and tool schemas are not counted). */
  contextTokens: number;
  /** Context reserved for the next reply. */
  reserveForOutput: number;
  /** Share of the available context at which history is compacted. */
  compactRatio: number;
  /** Most recent messages kept verbatim when compacting. */
  keepRecent: number;
}

/** Prices per million tokens, for the estimated cost in telemetry. */
export interface PricingConfig {
  inputPerMillionTokens: number;
  outputPerMillionTokens: number;
}

/** The table of the specification, field for field. */
export interface AgentConfigTable {
  baseUrl: string;
  model: string;
  apiKey: string;
  temperature: number;
  maxTokens: number;
  systemPrompt: string;
  stream: boolean;
  defaultApproval: Approval;
  minActionIntervalMs: number;
  retry: RetryConfig;
  limits: LimitsConfig;
}

export interface ResolvedAgentConfig extends AgentConfigTable {
  /**
   * Cross-document checkpoints: each session is saved (sessionStorage by default, see createAgentRuntime's
   * `checkpoint`) and restored by the next document of the same tab. Default false.
   */
  continuity: boolean;
  /** Language of the framework's prompts and notices. Default 'zh-CN'. */
  locale: Locale;
  pricing?: PricingConfig;
  /** Request trace, off unless given with a bound. */
  trace?: { maxCalls: number };
  /** Limits on the tokens and estimated cost of one run (one send()); reaching one ends it with a notice. */
  budget?: BudgetConfig;
}

/** Explicit configuration: every field optional; `retry` and `limits` may be partial. */
export type AgentConfig = Partial<Omit<ResolvedAgentConfig, 'retry' | 'limits'>> & {
  retry?: Partial<RetryConfig>;
  limits?: Partial<LimitsConfig>;
};

/** Environment as the caller passes it (e.g. import.meta.env); never read from globals. */
export type AgentEnv = Readonly<Record<string, string | boolean | number | undefined>>;

export const DEFAULT_AGENT_CONFIG: Readonly<AgentConfigTable> = Object.freeze({
  baseUrl: '',
  model: '',
  apiKey: '',
  temperature: 0.3,
  maxTokens: 1024,
  systemPrompt: '',
  stream: true,
  defaultApproval: 'danger',
  minActionIntervalMs: 0,
  retry: Object.freeze({ maxRetries: 3, baseDelayMs: 500, maxDelayMs: 4000 }),
  limits: Object.freeze({
    maxTurns: 10,
    contextTokens: 8192,
    reserveForOutput: 1024,
    compactRatio: 0.8,
    keepRecent: 6,
  }),
});

/** Environment variables and the field each sets. */
export const ENV_VARIABLES = {
  VITE_AGENT_BASE_URL: 'baseUrl',
  VITE_AGENT_MODEL: 'model',
  VITE_AGENT_API_KEY: 'apiKey',
  VITE_AGENT_TEMPERATURE: 'temperature',
  VITE_AGENT_MAX_TOKENS: 'maxTokens',
  VITE_AGENT_SYSTEM_PROMPT: 'systemPrompt',
  VITE_AGENT_STREAM: 'stream',
} as const satisfies Record<string, keyof AgentConfigTable>;

const TOP_LEVEL_KEYS = new Set<string>([
  ...Object.keys(DEFAULT_AGENT_CONFIG),
  'continuity',
  'locale',
  'pricing',
  'trace',
  'budget',
]);

const BUDGET_KEYS = new Set(['maxRunTokens', 'maxRunCost']);

export function resolveAgentConfig({ config = {}, env = {} }: { config?: AgentConfig; env?: AgentEnv } = {}) {
  // Errors are worded in the requested locale when it is a known one, else in the default.
  const errors = textsFor(typeof config === 'object' && config !== null ? config.locale : undefined).errors;
  checkKeys(config, TOP_LEVEL_KEYS, 'config', errors);
  checkKeys(config.retry ?? {}, new Set(Object.keys(DEFAULT_AGENT_CONFIG.retry)), 'config.retry', errors);
  checkKeys(config.limits ?? {}, new Set(Object.keys(DEFAULT_AGENT_CONFIG.limits)), 'config.limits', errors);
  checkKeys(config.budget ?? {}, BUDGET_KEYS, 'config.budget', errors);
  const fromEnv = readEnv(env, errors);
  const { retry, limits, ...explicit } = definedFields(config);
  const resolved: ResolvedAgentConfig = {
    ...DEFAULT_AGENT_CONFIG,
    continuity: false,
    locale: DEFAULT_LOCALE,
    ...fromEnv,
    ...explicit,
    retry: { ...DEFAULT_AGENT_CONFIG.retry, ...definedFields(retry ?? {}) },
    limits: { ...DEFAULT_AGENT_CONFIG.limits, ...definedFields(limits ?? {}) },
  };
  validateAgentConfig(resolved);
  return resolved;
}

/**
 * Two explicit configs as one (e.g. createPling's and a dock's `config` prop): `overrides` wins field by field, an
 * undefined field does not override, and `limits` and `retry` merge item by item, as with the environment.
 */
export function mergeAgentConfig(base: AgentConfig = {}, overrides: AgentConfig = {}): AgentConfig {
  const { retry, limits, ...rest } = definedFields(overrides);
  const merged: AgentConfig = { ...base, ...rest };
  if (base.retry || retry) merged.retry = { ...base.retry, ...definedFields(retry ?? {}) };
  if (base.limits || limits) merged.limits = { ...base.limits, ...definedFields(limits ?? {}) };
  return merged;
}

/** Throws INVALID_CONFIG naming the first field out of range (worded in config.locale when it is valid). */
export function validateAgentConfig(config: ResolvedAgentConfig): void {
  const { retry, limits } = config;
  const errors = textsFor(config.locale).errors;
  const expect = (field: string, value: unknown, rule: NumberRule) => expectNumber(field, value, rule, errors);
  expect('temperature', config.temperature, { min: 0, max: 2 });
  expect('maxTokens', config.maxTokens, { min: 1, integer: true });
  expect('minActionIntervalMs', config.minActionIntervalMs, { min: 0 });
  expect('retry.maxRetries', retry.maxRetries, { min: 0, max: 5, integer: true });
  expect('retry.baseDelayMs', retry.baseDelayMs, { min: 0 });
  expect('retry.maxDelayMs', retry.maxDelayMs, { min: retry.baseDelayMs });
  expect('limits.maxTurns', limits.maxTurns, { min: 1, integer: true });
  expect('limits.reserveForOutput', limits.reserveForOutput, { min: 0, integer: true });
  expect('limits.contextTokens', limits.contextTokens, { min: limits.reserveForOutput + 1, integer: true });
  expect('limits.compactRatio', limits.compactRatio, { min: 0, max: 1 });
  if (limits.compactRatio === 0) throw invalid(errors, errors.compactRatioZero);
  expect('limits.keepRecent', limits.keepRecent, { min: 0, integer: true });
  if (!['always', 'danger', 'never'].includes(config.defaultApproval)) {
    throw invalid(errors, errors.defaultApproval(JSON.stringify(config.defaultApproval)));
  }
  if (config.locale !== 'zh-CN' && config.locale !== 'en') {
    throw invalid(errors, errors.locale(JSON.stringify(config.locale)));
  }
  for (const field of ['baseUrl', 'model', 'apiKey', 'systemPrompt'] as const) {
    if (typeof config[field] !== 'string') throw invalid(errors, errors.notString(field));
  }
  if (typeof config.stream !== 'boolean') throw invalid(errors, errors.notBoolean('stream'));
  if (typeof config.continuity !== 'boolean') throw invalid(errors, errors.notBoolean('continuity'));
  if (config.pricing) {
    expect('pricing.inputPerMillionTokens', config.pricing.inputPerMillionTokens, { min: 0 });
    expect('pricing.outputPerMillionTokens', config.pricing.outputPerMillionTokens, { min: 0 });
  }
  if (config.trace) expect('trace.maxCalls', config.trace.maxCalls, { min: 1, integer: true });
  if (config.budget) {
    const { maxRunTokens, maxRunCost } = config.budget;
    if (maxRunTokens !== undefined) expect('budget.maxRunTokens', maxRunTokens, { min: 1, integer: true });
    if (maxRunCost !== undefined) {
      expect('budget.maxRunCost', maxRunCost, { min: 0 });
      if (!config.pricing) throw invalid(errors, errors.budgetNeedsPricing);
    }
  }
}

export type Readiness = { ready: true } | { ready: false; error: PlingError };

/**
 * Whether the runtime can send: baseUrl and model are required, and apiKey too for a direct (absolute) endpoint;
 * a relative baseUrl is a same-origin proxy. An injected llm client needs neither baseUrl nor apiKey.
 */
export function checkReadiness(config: ResolvedAgentConfig, { injectedLlm = false } = {}): Readiness {
  const errors = textsFor(config.locale).errors;
  const missing: string[] = [];
  if (!injectedLlm && config.baseUrl === '') missing.push('baseUrl (VITE_AGENT_BASE_URL)');
  if (config.model === '') missing.push('model (VITE_AGENT_MODEL)');
  if (!injectedLlm && config.baseUrl !== '' && isAbsoluteUrl(config.baseUrl) && config.apiKey === '') {
    missing.push(errors.missingApiKey);
  }
  if (missing.length === 0) return { ready: true };
  return {
    ready: false,
    error: new PlingError({
      code: 'NOT_CONFIGURED',
      message: errors.notConfigured(missing.join(errors.listSeparator)),
    }),
  };
}

/** http://, https://, any scheme, or a protocol-relative //host: a direct endpoint rather than a same-origin path. */
export function isAbsoluteUrl(url: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(url) || url.startsWith('//');
}

function readEnv(env: AgentEnv, errors: ErrorTexts): Partial<AgentConfigTable> {
  const fields: Record<string, unknown> = {};
  for (const [variable, field] of Object.entries(ENV_VARIABLES)) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    if (field === 'temperature' || field === 'maxTokens') {
      const value = Number(raw);
      if (!Number.isFinite(value)) throw invalid(errors, errors.envNumber(variable, JSON.stringify(raw)));
      fields[field] = value;
    } else if (field === 'stream') {
      if (raw !== true && raw !== false && raw !== 'true' && raw !== 'false') {
        throw invalid(errors, errors.envBoolean(variable, JSON.stringify(raw)));
      }
      fields[field] = raw === true || raw === 'true';
    } else {
      fields[field] = String(raw);
    }
  }
  return fields as Partial<AgentConfigTable>;
}

/** Drops undefined values, so `{ model: undefined }` does not override the environment. */
function definedFields<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

function checkKeys(value: object, allowed: ReadonlySet<string>, where: string, errors: ErrorTexts): void {
  if (typeof value !== 'object' || value === null) throw invalid(errors, errors.notObject(where));
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) throw invalid(errors, errors.unknownField(`${where}.${key}`, [...allowed].join(', ')));
  }
}

function expectNumber(
  field: string,
  value: unknown,
  { min, max, integer = false }: NumberRule,
  errors: ErrorTexts,
): void {
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    value >= min &&
    (max === undefined || value <= max);
  if (ok) return;
  throw invalid(errors, errors.numberRange(field, integer, min, max, JSON.stringify(value)));
}

interface NumberRule {
  min: number;
  max?: number;
  integer?: boolean;
}

function invalid(errors: ErrorTexts, problem: string): PlingError {
  return new PlingError({ code: 'INVALID_CONFIG', message: errors.invalidConfig(problem) });
}
