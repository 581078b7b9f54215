// The console's model providers (docs/session-protocol.md 「Models, platforms and personas」): the OpenAI-compatible
// endpoint (`llm` / `plugins.llm-openai`) and the Anthropic key (`plugins.llm-anthropic`) as configured and as they
// run, saved and removed through the host's configuration service (applied live, written back, audited), and each
// model's facts (vision, thinking levels, context window, prices) in its provider's `models` list. Keys and header
// values never leave the host: they are sent as the mask, and the mask sent back keeps the stored value.

import { type HostConfigService, SECRET_MASK } from '@aalis/api-host-config';
import { llm } from '@aalis/api-llm';
import type { ProviderKind, ProviderModelView, ProviderView } from '@aalis/session-client';
import { auditChanges, recordAudit } from './audit.js';
import { badParam, optionalString, requireString } from './params.js';
import { ConfigWrites, hostConfigOf, modelFactsEntry, recordOf, stringRecord } from './providers-config.js';
import type { Handler } from './request-handler.js';
import type { ServerDeps } from './server-deps.js';

/** Where each provider kind lives in the configuration and which plugin instance runs it. */
export const PROVIDER_SLOTS = {
  openai: { alias: 'llm-openai', instance: 'openai', plugin: '@aalis/plugin-llm-openai' },
  anthropic: { alias: 'llm-anthropic', instance: 'anthropic', plugin: '@aalis/plugin-llm-anthropic' },
} as const satisfies Record<ProviderKind, { alias: string; instance: string; plugin: string }>;

const KINDS = Object.keys(PROVIDER_SLOTS) as ProviderKind[];

/** What the configuration stores for the providers now, with the revision to write against. */
interface StoredProviders {
  revision: string;
  source: 'file' | 'database';
  /** The `llm` short form (baseUrl, apiKey, model …). */
  llm: Record<string, unknown>;
  sections: Record<ProviderKind, Record<string, unknown> | false | undefined>;
}

async function readStored(service: HostConfigService): Promise<StoredProviders> {
  const root = await service.read([]);
  const config = recordOf(root.value) ?? {};
  const plugins = recordOf(config.plugins) ?? {};
  const sectionOf = (kind: ProviderKind) => {
    const value = plugins[PROVIDER_SLOTS[kind].alias];
    return value === false ? false : (recordOf(value) ?? (value === true || value === null ? {} : undefined));
  };
  return {
    revision: root.revision,
    source: root.source,
    llm: recordOf(config.llm) ?? {},
    sections: { openai: sectionOf('openai'), anthropic: sectionOf('anthropic') },
  };
}

export function readKind(type: string, params: Record<string, unknown>): ProviderKind {
  const kind = params.kind;
  if (typeof kind !== 'string' || !(KINDS as string[]).includes(kind)) {
    badParam(type, 'kind', 'oneOf', kind, { values: KINDS.join(', ') });
  }
  return kind as ProviderKind;
}

/** The provider as configured and as it runs, secrets masked. */
function providerView(deps: ServerDeps, stored: StoredProviders, kind: ProviderKind): ProviderView {
  const slot = PROVIDER_SLOTS[kind];
  const section = stored.sections[kind];
  const own = section === false ? {} : (section ?? {});
  const shortForm = kind === 'openai' ? stored.llm : {};
  const baseUrl = nonEmpty(shortForm.baseUrl) ?? nonEmpty(own.baseUrl);
  const apiKeySet = Boolean(nonEmpty(shortForm.apiKey) ?? nonEmpty(own.apiKey));
  const headers = Object.fromEntries(Object.keys(stringRecord(own.headers)).map((name) => [name, SECRET_MASK]));
  const running = deps.plugins.available
    ? deps.plugins.use.list().find((state) => state.id === slot.instance)
    : undefined;
  const configured =
    section !== false && (kind === 'openai' ? baseUrl !== undefined : section !== undefined || running !== undefined);
  const configuredIds = new Set(
    (Array.isArray(own.models) ? own.models : [])
      .map((entry) => recordOf(entry)?.id)
      .filter((id): id is string => typeof id === 'string'),
  );
  const stored_models = Array.isArray(own.models) ? own.models.map(recordOf) : [];
  const provider = deps.services.providers(llm).find((candidate) => candidate.instanceId === slot.instance);
  const models: ProviderModelView[] = (provider?.impl.models() ?? []).map((model) => {
    const entry = stored_models.find((candidate) => candidate?.id === model.model);
    const prices = recordOf(entry?.prices);
    return {
      id: model.id,
      model: model.model,
      name: model.name,
      contextWindow: model.contextWindow,
      maxOutputTokens: model.maxOutputTokens,
      vision: model.capabilities.vision,
      tools: model.capabilities.tools,
      ...(model.thinking === 'not-adjustable' ? {} : { thinking: structuredClone(model.thinking) }),
      ...(prices ? { prices: prices as unknown as NonNullable<ProviderModelView['prices']> } : {}),
      configured: configuredIds.has(model.model),
    };
  });
  return {
    kind,
    id: slot.instance,
    configured,
    ...(baseUrl ? { baseUrl: maskUrl(baseUrl) } : {}),
    apiKeySet,
    headers,
    ...(running ? { state: running.state } : {}),
    ...(running?.error ? { error: running.error.localized(deps.locale) } : {}),
    models,
  };
}

export const providersList: Handler<'admin.providers.list'> = async (deps) => {
  const stored = await readStored(hostConfigOf(deps));
  return {
    providers: KINDS.map((kind) => providerView(deps, stored, kind)),
    revision: stored.revision,
    source: stored.source,
  };
};

export const providersSave: Handler<'admin.providers.save'> = async (deps, account, params, { type }) => {
  const kind = readKind(type, params);
  const revision = requireString(type, params, 'revision', 200);
  const baseUrl = optionalString(type, params, 'baseUrl', 2000)?.trim();
  const apiKey = optionalString(type, params, 'apiKey', 4000);
  const headers = params.headers === undefined ? undefined : readHeaders(type, params.headers);
  if (kind === 'openai' && !baseUrl) badParam(type, 'baseUrl', 'nonEmptyString', params.baseUrl, { max: '2000' });
  const service = hostConfigOf(deps);
  const stored = await readStored(service);
  const slot = PROVIDER_SLOTS[kind];
  const writes = new ConfigWrites(service, revision, deps.locale);
  const apply = (target: Record<string, unknown>) => {
    if (baseUrl !== undefined) target.baseUrl = baseUrl;
    // '' removes the key; the mask keeps the stored one (the configuration service restores it).
    if (apiKey !== undefined) {
      if (apiKey === '') delete target.apiKey;
      else target.apiKey = apiKey;
    }
    return target;
  };
  const section = { ...(stored.sections[kind] || {}) };
  if (kind === 'openai' && nonEmpty(stored.llm.baseUrl) !== undefined) {
    // The endpoint is written in the `llm` short form: it is changed there (the short form wins over the section).
    await writes.write(['llm'], apply({ ...stored.llm }));
    if (headers !== undefined) await writes.write(['plugins', slot.alias], { ...section, headers });
  } else {
    const value = apply(section);
    if (headers !== undefined) value.headers = headers;
    await writes.write(['plugins', slot.alias], value);
  }
  await recordAudit(deps, account, auditChanges(type, writes.changes));
  const now = await readStored(service);
  return { provider: providerView(deps, now, kind), revision: now.revision };
};

export const providersDelete: Handler<'admin.providers.delete'> = async (deps, account, params, { type }) => {
  const kind = readKind(type, params);
  const revision = requireString(type, params, 'revision', 200);
  const service = hostConfigOf(deps);
  const stored = await readStored(service);
  const slot = PROVIDER_SLOTS[kind];
  const writes = new ConfigWrites(service, revision, deps.locale);
  if (kind === 'openai') {
    // The endpoint goes, the models' facts stay (they come back with the endpoint).
    if (nonEmpty(stored.llm.baseUrl) !== undefined || nonEmpty(stored.llm.apiKey) !== undefined) {
      const { baseUrl: _url, apiKey: _key, ...rest } = stored.llm;
      await writes.write(['llm'], rest);
    }
    const section = stored.sections.openai;
    if (section) {
      const { baseUrl: _url, apiKey: _key, headers: _headers, ...rest } = section;
      await writes.write(['plugins', slot.alias], Object.keys(rest).length > 0 ? rest : undefined);
    }
  } else if (stored.sections.anthropic !== undefined) {
    await writes.write(['plugins', slot.alias], undefined);
  }
  // A default model of the provider that went would name nothing: the preference goes with it.
  const preferred = deps.services.preferences().global.llm;
  if (preferred?.startsWith(`${slot.instance}/`)) deps.services.setGlobalPreference('llm', undefined);
  await recordAudit(deps, account, auditChanges(type, writes.changes));
  return { revision: writes.revision };
};

export const modelsSave: Handler<'admin.models.save'> = async (deps, account, params, { type }) => {
  const kind = readKind(type, params);
  const model = requireString(type, params, 'model', 300);
  const revision = requireString(type, params, 'revision', 200);
  const facts = params.facts;
  if (facts !== null && recordOf(facts) === undefined) badParam(type, 'facts', 'object', facts);
  const service = hostConfigOf(deps);
  const stored = await readStored(service);
  const slot = PROVIDER_SLOTS[kind];
  const section = { ...(stored.sections[kind] || {}) };
  const models = (Array.isArray(section.models) ? section.models : await defaultModels(kind)).map(
    (entry) => recordOf(entry) ?? entry,
  );
  const index = models.findIndex((entry) => recordOf(entry)?.id === model);
  const entry = modelFactsEntry(kind, model, index >= 0 ? recordOf(models[index]) : undefined, recordOf(facts));
  if (entry === undefined) {
    if (index >= 0) models.splice(index, 1);
  } else if (index >= 0) models[index] = entry;
  else models.push(entry);
  section.models = models;
  const written = await service.write(['plugins', slot.alias], section, revision, { locale: deps.locale });
  await recordAudit(deps, account, auditChanges(type, written.changes));
  const now = await readStored(service);
  return { provider: providerView(deps, now, kind), revision: now.revision };
};

/** The models a section offers when it lists none (Anthropic's default list; none for an OpenAI endpoint). */
async function defaultModels(kind: ProviderKind): Promise<unknown[]> {
  if (kind === 'openai') return [];
  const { anthropicConfigSchema } = await import('@aalis/plugin-llm-anthropic/config-schema');
  return structuredClone(anthropicConfigSchema.validate({}).value.models);
}

function readHeaders(type: string, value: unknown): Record<string, string> {
  const record = recordOf(value);
  if (!record || Object.keys(record).length > 50) badParam(type, 'headers', 'object', value);
  for (const [name, header] of Object.entries(record)) {
    if (typeof header !== 'string' || header.length > 4000 || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(name)) {
      badParam(type, `headers.${name.slice(0, 100)}`, 'string', header, { max: '4000' });
    }
  }
  return record as Record<string, string>;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A URL without the user:password@ it may carry. */
function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
