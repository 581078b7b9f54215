// The settings an adapter cannot connect without (a token, an app id and secret): checked once at `apply`, the first
// one missing shown in the console (its config key, where the settings page opens) and in the log.
import type { AalisError, Logger } from '@aalis/core';
import { type PlatformStateReport, stateError } from './platform-state-report.js';

/**
 * True when every value of `required` (by key of the adapter's config section) is set (not empty). Otherwise the
 * first missing one is reported (`stopped` at its config key, with the adapter's coded error for it where it has one)
 * and logged as `<label>: plugins.<section>.<key> is not set; not connecting`, and false is returned.
 */
export function requireSettings(
  state: PlatformStateReport,
  logger: Logger,
  label: string,
  required: Record<string, string>,
  missingError?: (key: string) => AalisError,
): boolean {
  const missing = Object.keys(required).find((key) => required[key] === '');
  if (missing === undefined) return true;
  const configKey = state.configKey(missing);
  const error = missingError?.(missing);
  state.set({ status: 'stopped', configKey, ...(error ? { error: stateError(error) } : {}) });
  logger.warn(`${label}: ${configKey} is not set; not connecting`, error ? { code: error.code } : {});
  return false;
}
