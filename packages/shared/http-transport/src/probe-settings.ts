// What a provider made only to test a connection from the console (admin.providers.test) reads: the section as it
// would be saved, with no retries and short waits, so a test says within seconds what is wrong. Each provider plugin
// builds its probe from these settings; it emits no usage events (a test is no conversation) and is closed after.
import type { LlmService } from '@aalis/api-llm';
import { coreErrors, type I18n, type Locale, type Logger, type Schema } from '@aalis/core';

/** A test waits this long at most for each phase (connect, headers, silence). */
export const PROBE_TIMEOUTS = { connectMs: 5_000, headersMs: 15_000, idleMs: 15_000 } as const;

export interface ProbeProvider {
  service: LlmService;
  /** The model ids the section offers (listed by the server, or configured); rejects with the llm coded errors. */
  listModels(): Promise<string[]>;
  close(): void;
}

/** What each provider plugin's `openProbeProvider` is given: the section as it would be saved. */
export interface ProbeRequest {
  section: Record<string, unknown>;
  logger: Logger;
  i18n: I18n;
}

/**
 * The section with retries off and the probe's timeouts (and `extra`, e.g. no model fetch at start), validated:
 * AALIS_CONFIG_INVALID naming the first field that is wrong when the section itself cannot work.
 */
export function probeSettings<T>(
  schema: Schema<T>,
  section: Record<string, unknown>,
  { plugin, locale, extra = {} }: { plugin: string; locale: Locale; extra?: Record<string, unknown> },
): T {
  const { value, issues } = schema.validate(
    { ...section, ...extra, retry: { maxRetries: 0 }, timeouts: PROBE_TIMEOUTS },
    locale,
  );
  const first = issues[0];
  if (first) {
    throw coreErrors.AALIS_CONFIG_INVALID({
      plugin,
      field: first.path || '(section)',
      expected: first.expected,
      received: first.received,
    });
  }
  return value;
}
