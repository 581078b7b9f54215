// The keys the runtime fills into plugin sections from the host keys (listed per plugin in the reference).
import type { HostConfig } from './host-config.js';

export interface FillInContext {
  host: HostConfig;
  /** Absolute data directory. */
  dataDir: string;
  /** The effective time zone (the configured one, or this machine's). */
  timeZone: string;
  /** The terminal user's account id on platform "cli". */
  cliUserId: string;
  /** The WebUI owner's account id on platform "webui" (undefined when the session server is off). */
  webuiOwnerUserId?: string;
}

/** The runtime's filled-in keys of some sections (see PluginSlot.filledIn). */
export function fillIn(
  alias: string,
  section: Record<string, unknown>,
  { host, dataDir, timeZone, cliUserId, webuiOwnerUserId }: FillInContext,
): void {
  switch (alias) {
    case 'storage':
      section.dataDir = dataDir;
      if (host.database !== '') section.database = host.database;
      break;
    case 'authority': {
      const owners = Array.isArray(section.owners) ? [...section.owners] : [];
      owners.push(...host.owners, { platform: 'cli', userId: cliUserId });
      if (webuiOwnerUserId !== undefined) owners.push({ platform: 'webui', userId: webuiOwnerUserId });
      section.owners = dedupe(owners);
      break;
    }
    case 'session-server':
      if (host.webui.host !== undefined) section.host = host.webui.host;
      if (host.webui.port !== undefined) section.port = host.webui.port;
      break;
    case 'agent':
    case 'message-archive':
    case 'schedule':
    case 'workflow':
      section.timeZone ??= timeZone;
      break;
    case 'llm-openai': {
      const { llm } = host;
      if (llm.baseUrl !== '') section.baseUrl = llm.baseUrl;
      if (llm.apiKey !== '') section.apiKey = llm.apiKey;
      if (llm.model !== '') {
        const models = Array.isArray(section.models) ? [...section.models] : [];
        const known = models.some((model) => (model as { id?: unknown })?.id === llm.model);
        if (!known) models.push({ id: llm.model });
        section.models = models;
      }
      if (llm.contextWindow !== undefined || llm.maxOutputTokens !== undefined) {
        const defaults = { ...((section.modelDefaults as Record<string, unknown> | undefined) ?? {}) };
        if (llm.contextWindow !== undefined) defaults.contextWindow = llm.contextWindow;
        if (llm.maxOutputTokens !== undefined) defaults.maxOutputTokens = llm.maxOutputTokens;
        section.modelDefaults = defaults;
      }
      break;
    }
  }
}

function dedupe(owners: unknown[]): unknown[] {
  const seen = new Set<string>();
  return owners.filter((owner) => {
    const key = JSON.stringify(owner);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
