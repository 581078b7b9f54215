// Small pieces the provider requests share: the configuration service and writes one after another, reading plain
// records, and a model's facts (from the console's form) as an entry of its provider's `models` list.
import type { ConfigChange, ConfigPath, HostConfigService } from '@aalis/api-host-config';
import type { Locale } from '@aalis/core';
import type { ProviderKind } from '@aalis/session-client';
import type { ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';

export function hostConfigOf(deps: ServerDeps): HostConfigService {
  if (!deps.hostConfig.available) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'hostConfig' });
  return deps.hostConfig.use;
}

/**
 * Writes made one after another, each against the revision the one before left, their changes gathered for the
 * audit: a provider request may change the `llm` short form and the provider's section at once.
 */
export class ConfigWrites {
  readonly changes: ConfigChange[] = [];

  constructor(
    private readonly service: HostConfigService,
    public revision: string,
    private readonly locale: Locale,
  ) {}

  async write(path: ConfigPath, value: unknown): Promise<void> {
    const written = await this.service.write(path, value, this.revision, { locale: this.locale });
    this.changes.push(...written.changes);
    this.revision = written.revision;
  }
}

export function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The string entries of a record (anything else left out). */
export function stringRecord(value: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries(recordOf(value) ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** The keys the facts form edits; every other key of an entry (timeouts, reasoningParam …) is kept. */
const EDITED = ['name', 'contextWindow', 'maxOutputTokens', 'prices', 'thinking', 'vision', 'capabilities'] as const;

/**
 * The `models[]` entry for `model` with the given facts over the existing entry: keys the facts leave out go back
 * to their defaults. Facts null: the entry goes (undefined). Values are passed as given; the configuration check
 * (the provider's schema) refuses wrong ones with the field named.
 */
export function modelFactsEntry(
  kind: ProviderKind,
  model: string,
  existing: Record<string, unknown> | undefined,
  facts: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (facts === undefined) return undefined;
  const entry: Record<string, unknown> = { ...(existing ?? {}), id: model };
  for (const key of EDITED) delete entry[key];
  if (typeof facts.name === 'string' && facts.name.trim() !== '') entry.name = facts.name.trim();
  if (facts.contextWindow !== undefined && facts.contextWindow !== null) entry.contextWindow = facts.contextWindow;
  if (facts.maxOutputTokens !== undefined && facts.maxOutputTokens !== null) {
    entry.maxOutputTokens = facts.maxOutputTokens;
  }
  if (facts.prices !== undefined && facts.prices !== null) entry.prices = facts.prices;
  const capabilities = recordOf(recordOf(existing)?.capabilities) ?? {};
  if (kind === 'openai') {
    if (facts.vision !== undefined) entry.capabilities = { ...capabilities, vision: facts.vision };
    else if (Object.keys(capabilities).length > 0) entry.capabilities = capabilities;
    if (facts.thinking !== undefined && facts.thinking !== null) entry.thinking = facts.thinking;
  } else {
    if (facts.vision !== undefined) entry.vision = facts.vision;
    // Anthropic's models have the fixed levels off/low/medium/high: the fact is whether it thinks at all.
    if (facts.thinking !== undefined) entry.thinking = facts.thinking !== null;
  }
  return entry;
}
