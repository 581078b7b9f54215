// `logs.query` (docs/session-protocol.md 「Logs」): the kept records matching a filter within a time range, the
// latest `limit` of them, secrets redacted as in the live logs; the page downloads them as a file.
import type { ResultOf } from '@aalis/session-client';
import { integerParam } from '../accounts/account-params.js';
import { logView } from '../admin-requests.js';
import type { LogArchive } from './log-archive.js';
import { readLogFilter } from './log-filter.js';

export function logsQuery(
  archive: LogArchive,
  params: Record<string, unknown>,
  redact: (text: string) => string,
): ResultOf<'logs.query'> {
  const type = 'logs.query';
  const filter = readLogFilter(type, params);
  const range = { min: 0, max: Number.MAX_SAFE_INTEGER };
  const from = integerParam(type, params, 'from', { ...range, fallback: 0 });
  const to = integerParam(type, params, 'to', { ...range, fallback: Number.MAX_SAFE_INTEGER });
  const limit = integerParam(type, params, 'limit', { min: 1, max: 5000, fallback: 1000 });
  const { records, truncated } = archive.query(filter, { from, to, limit });
  const oldest = archive.oldest();
  return {
    records: records.map((record) => logView(record, redact)),
    truncated,
    ...(oldest !== undefined ? { oldest } : {}),
  };
}
