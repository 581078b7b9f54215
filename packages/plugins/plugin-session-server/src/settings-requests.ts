// Session settings as the settings panel draws them (each field with value, source layer, note, options and whether
// this account may write it), their writes on the session layer, the model list and the persona options.
import { meetsLevel } from '@aalis/api-authority';
import { listModels, llm, modelRef, resolveModelFor } from '@aalis/api-llm';
import { PERSONA_FIELD_KEY } from '@aalis/api-persona';
import type { SessionInfo } from '@aalis/api-session-manager';
import { type FieldInfo, type SettingsScope, venueTarget } from '@aalis/api-session-settings';
import type { Account, ModelView, ResultOf, SettingView } from '@aalis/session-client';
import { badParam, optionalRecord, optionalString, requireString } from './params.js';
import type { Handler } from './request-handler.js';
import { identityOf, type ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';
import { accessibleSession } from './session-access.js';

function fields(deps: ServerDeps) {
  if (!deps.sessionFields.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'sessionFields' });
  return deps.sessionFields.use;
}

export function scopeOf(session: SessionInfo): SettingsScope {
  return { sessionId: session.id, platform: session.platform, ...(session.venue ? { venue: session.venue } : {}) };
}

function mayWrite(deps: ServerDeps, account: Account, info: FieldInfo): boolean {
  if (account.owner) return true;
  const caller = deps.authority.available ? deps.authority.use.callerOf(identityOf(account)) : undefined;
  return meetsLevel({ level: caller?.level ?? 0, isOwner: caller?.isOwner ?? false, required: info.field.level });
}

function displayValue(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && 'provider' in value && 'model' in value) {
    const ref = value as { provider: string; model: string };
    return modelRef(ref);
  }
  return value;
}

async function viewOf(deps: ServerDeps, account: Account, scope: SettingsScope, info: FieldInfo): Promise<SettingView> {
  const service = fields(deps);
  const { field } = info;
  const effective = await service.get(scope, field.key);
  const note =
    effective.layer === 'unset'
      ? await service.describeUnset(scope, field.key)
      : await service.describeValue(scope, field.key, effective.value);
  const view: SettingView = {
    key: field.key,
    type: field.type,
    label: deps.translate(field.label),
    visibility: field.visibility,
    level: field.level,
    writable: mayWrite(deps, account, info),
    value: displayValue(effective.value),
    source: effective.layer,
  };
  if (field.description !== undefined) view.description = deps.translate(field.description);
  if (note !== undefined) view.note = deps.translate(note);
  if (field.options)
    view.options = field.options.map((option) => ({ value: option.value, label: deps.translate(option.label) }));
  if (field.dynamicOptions) view.dynamicOptions = { dependsOn: [...(field.dynamicOptions.dependsOn ?? [])] };
  return view;
}

export async function settingsGet(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const session = await accessibleSession(deps, account, params.sessionId, 'settings.get');
  const scope = scopeOf(session);
  const settings: SettingView[] = [];
  for (const info of fields(deps).fields()) settings.push(await viewOf(deps, account, scope, info));
  return { settings } satisfies ResultOf<'settings.get'>;
}

export async function settingsOptions(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const session = await accessibleSession(deps, account, params.sessionId, 'settings.options');
  const key = requireString('settings.options', params, 'key');
  const values = optionalRecord('settings.options', params, 'values');
  const info = fields(deps).field(key);
  if (!info) badParam('settings.options', 'key', 'settingKey', key);
  const resolved = values
    ? Object.fromEntries(Object.entries(values).map(([name, value]) => [name, toStored(deps, name, value)]))
    : undefined;
  const options = await fields(deps).options({
    scope: scopeOf(session),
    key,
    ...(resolved ? { values: resolved } : {}),
  });
  return {
    options: options.map((option) => ({ value: option.value, label: deps.translate(option.label) })),
  } satisfies ResultOf<'settings.options'>;
}

/** An llm-ref given as "<provider>/<model>" is looked up among the models (instance ids may contain "/"). */
function toStored(deps: ServerDeps, key: string, value: unknown): unknown {
  const info = deps.sessionFields.use.field(key);
  if (info?.field.type !== 'llm-ref' || typeof value !== 'string') return value;
  const model = listModels({ providers: deps.services.providers(llm) }).find((candidate) => candidate.id === value);
  if (!model) {
    badParam('settings.set', 'value', 'modelId', value);
  }
  return { provider: model.provider, model: model.model };
}

export async function settingsWrite(
  deps: ServerDeps,
  account: Account,
  params: Record<string, unknown>,
  mode: 'set' | 'reset',
): Promise<ResultOf<'settings.set'>> {
  const type = mode === 'set' ? 'settings.set' : 'settings.reset';
  const session = await accessibleSession(deps, account, params.sessionId, type);
  const key = requireString(type, params, 'key');
  const service = fields(deps);
  const info = service.field(key);
  if (!info) badParam(type, 'key', 'settingKey', key);
  const caller = { identity: identityOf(account), via: 'host' as const };
  const target = { ...layerTarget(type, session, params.layer), key, caller };
  if (mode === 'set') {
    if (!('value' in params)) badParam(type, 'value', 'value', undefined);
    await service.set({ ...target, value: toStored(deps, key, params.value) });
  } else {
    await service.reset(target);
  }
  return { setting: await viewOf(deps, account, scopeOf(session), info) };
}

/** Where a write goes: the session (default), its venue or its platform layer. */
function layerTarget(
  type: string,
  session: SessionInfo,
  layer: unknown,
): { layer: 'session' | 'venue' | 'platform'; target: string } {
  if (layer === undefined || layer === 'session') return { layer: 'session', target: session.id };
  if (layer === 'platform') return { layer: 'platform', target: session.platform };
  if (layer === 'venue') {
    if (session.venue === undefined) {
      badParam(type, 'layer', 'layerNoVenue', layer);
    }
    return { layer: 'venue', target: venueTarget({ platform: session.platform, venue: session.venue }) };
  }
  badParam(type, 'layer', 'layer', layer);
}

export const modelsList: Handler<'models.list'> = (deps) => {
  const models: ModelView[] = listModels({ providers: deps.services.providers(llm) }).map((model) => ({
    id: model.id,
    name: model.name,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxOutputTokens,
    vision: model.capabilities.vision,
    tools: model.capabilities.tools,
    offline: model.offline === true,
  }));
  const current =
    models.length > 0 ? resolveModelFor({ services: deps.services, consumer: '@aalis/plugin-agent' }) : undefined;
  return { models, ...(current ? { defaultModel: current.model.id } : {}) };
};

export async function personasList(deps: ServerDeps, account: Account, params: Record<string, unknown>) {
  const sessionId = optionalString('personas.list', params, 'sessionId');
  if (!deps.sessionFields.available || !deps.sessionFields.use.field(PERSONA_FIELD_KEY)) return { personas: [] };
  const scope = sessionId
    ? scopeOf(await accessibleSession(deps, account, sessionId, 'personas.list'))
    : { sessionId: '' };
  const options = await deps.sessionFields.use.options({ scope, key: PERSONA_FIELD_KEY });
  return {
    personas: options.map((option) => ({ value: option.value, label: deps.translate(option.label) })),
  } satisfies ResultOf<'personas.list'>;
}
