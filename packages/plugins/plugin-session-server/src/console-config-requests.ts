// The console's plugin settings (docs/session-protocol.md 「Plugin settings and audit」): admin.config.get gives a
// plugin's schema and stored values (secrets masked), admin.config.set checks, applies live and stores a new
// section through the host's hostConfig service, admin.plugins.enable/disable turn plugins on and off. Every change
// leaves audit records.
import { type HostConfigService, hostConfigErrors, maskSecrets } from '@aalis/api-host-config';
import type { Account, ConfigSetResult, PluginView, ResultOf, SchemaView } from '@aalis/session-client';
import { auditChanges, recordAudit } from './audit.js';
import { stateView } from './console-config-plugins.js';
import { badParam, optionalString, requireString } from './params.js';
import { hostConfigOf } from './providers-config.js';
import type { Handler } from './request-handler.js';
import type { ServerDeps } from './server-deps.js';

const EMPTY_SCHEMA: SchemaView = { type: 'object', fields: {} };

export const configGet: Handler<'admin.config.get'> = async (deps, _account, params, { type }) => {
  const service = hostConfigOf(deps);
  const found = pluginOf(deps, service, requireString(type, params, 'plugin', 200));
  const read = await service.read(found.path);
  const values = maskSecrets(read.value, read.secrets);
  return {
    plugin: found.plugin.id,
    key: found.path.join('.'),
    schema: (found.schema as SchemaView | undefined) ?? EMPTY_SCHEMA,
    values:
      typeof values === 'object' && values !== null && !Array.isArray(values)
        ? (values as Record<string, unknown>)
        : {},
    secrets: read.secrets.filter((path) => path !== ''),
    revision: read.revision,
    source: read.source,
  };
};

export const configSet: Handler<'admin.config.set'> = async (deps, account, params, { type }) => {
  const service = hostConfigOf(deps);
  const found = pluginOf(deps, service, requireString(type, params, 'plugin', 200));
  const values = params.values;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    badParam(type, 'values', 'object', values);
  }
  const revision = requireString(type, params, 'revision', 200);
  const result = await service.write(found.path, values, revision, { locale: deps.locale });
  await recordAudit(deps, account, auditChanges('config.set', result.changes));
  return outcome(deps, service, found.plugin.alias, result);
};

export async function pluginSwitch(
  deps: ServerDeps,
  account: Account,
  params: Record<string, unknown>,
  enabled: boolean,
): Promise<ResultOf<'admin.plugins.enable'>> {
  const type = enabled ? 'admin.plugins.enable' : 'admin.plugins.disable';
  const service = hostConfigOf(deps);
  const found = pluginOf(deps, service, requireString(type, params, 'plugin', 200));
  const revision = optionalString(type, params, 'revision', 200) ?? (await service.read([])).revision;
  const wasEnabled = found.plugin.enabled;
  const result = await service.setEnabled(found.plugin.id, enabled, revision, { locale: deps.locale });
  if (wasEnabled !== enabled) {
    await recordAudit(deps, account, {
      action: enabled ? 'plugin.enable' : 'plugin.disable',
      key: found.path.join('.'),
      old: wasEnabled,
      new: enabled,
    });
  }
  return outcome(deps, service, found.plugin.alias, result);
}

function outcome(
  deps: ServerDeps,
  service: HostConfigService,
  alias: string,
  result: Awaited<ReturnType<HostConfigService['write']>>,
): ConfigSetResult {
  const plugin = service.plugins(deps.locale).find((entry) => entry.alias === alias)!;
  const state = deps.plugins.available
    ? deps.plugins.use.list().find((entry) => entry.id === plugin.id)
    : result.applied.find((entry) => entry.id === plugin.id);
  const view: PluginView = state
    ? stateView(deps, state)
    : { id: plugin.id, name: plugin.name, state: plugin.enabled ? 'unconfigured' : 'disabled', missing: [] };
  return {
    revision: result.revision,
    changes: result.changes.map((change) => ({
      key: change.key,
      ...(change.old === undefined ? {} : { old: change.old }),
      ...(change.new === undefined ? {} : { new: change.new }),
      secret: change.secret,
    })),
    plugin: { id: view.id, state: view.state, missing: view.missing, ...(view.error ? { error: view.error } : {}) },
  };
}

function pluginOf(deps: ServerDeps, service: HostConfigService, id: string) {
  const found = service.pluginSchema(id, deps.locale);
  if (found) return found;
  throw hostConfigErrors.AALIS_HOST_CONFIG_UNKNOWN_PLUGIN({
    plugin: id.slice(0, 100),
    known: service
      .plugins(deps.locale)
      .map((plugin) => plugin.alias)
      .join(', '),
  });
}
