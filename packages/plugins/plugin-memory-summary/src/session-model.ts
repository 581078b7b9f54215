// Which model writes a session's summary: config `model` > the session's `llm` setting > this plugin's own llm
// preference, or else plugin-agent's (so summaries follow the model the session talks to) > the global preference
// > provider priority > registration order.
import { agent } from '@aalis/api-agent';
import { llm, modelRef, type ResolvedModel, resolveModelFor } from '@aalis/api-llm';
import { isLlmRef, type SessionFieldsService, type SettingsScope } from '@aalis/api-session-settings';
import type { ServiceHandle, Services } from '@aalis/core';

/** plugin-agent's per-session model field (plugin-agent.zh.md 「会话设置项」). */
export const SESSION_MODEL_FIELD = 'llm';

export async function sessionModelSetting(
  sessionFields: ServiceHandle<SessionFieldsService>,
  scope: SettingsScope,
): Promise<string | undefined> {
  if (!sessionFields.available || !sessionFields.use.field(SESSION_MODEL_FIELD)) return undefined;
  try {
    const { value } = await sessionFields.use.get(scope, SESSION_MODEL_FIELD);
    return isLlmRef(value) ? modelRef(value) : undefined;
  } catch {
    // Unreadable settings: fall back to the preferences, as the agent does for a session without a model.
    return undefined;
  }
}

export function resolveSummaryModel({
  services,
  requested,
}: {
  /** This plugin's services handle. */
  services: Services;
  requested: string | undefined;
}): ResolvedModel | undefined {
  const own = services.preference(llm.name);
  const agentInstance = services.selected(agent)?.instanceId;
  const consumer = own?.scope === 'plugin' ? undefined : agentInstance;
  return resolveModelFor({ services, requested, consumer });
}
