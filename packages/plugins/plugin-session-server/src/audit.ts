// recordAudit: every change made through the console leaves an audit record (who, when, which key, old and new value
// with secrets redacted). Handlers call it after the change succeeded; admin.audit.list reads the records.
import type { ConfigChange } from '@aalis/api-host-config';
import type { Account } from '@aalis/session-client';
import type { AuditRecord } from './audit-store.js';
import { badParam } from './params.js';
import type { Handler } from './request-handler.js';
import { identityOf, type ServerDeps } from './server-deps.js';

export interface AuditInput {
  /** The request that made the change: config.set, plugin.disable, providers.save … */
  action: string;
  /** Dotted key: plugins.agent.systemPrompt, accounts.alice.level … */
  key: string;
  old?: unknown;
  new?: unknown;
  /** A password, key or token: its values are never stored (kept as the mask). */
  secret?: boolean;
}

/** Stores the records of one change by `account` (an empty list stores nothing). */
export async function recordAudit(
  deps: ServerDeps,
  account: Account,
  entries: AuditInput | readonly AuditInput[],
): Promise<void> {
  const list = Array.isArray(entries) ? (entries as readonly AuditInput[]) : [entries as AuditInput];
  if (list.length === 0) return;
  const actor = identityOf(account);
  const records: AuditRecord[] = list.map((entry) => ({
    actor,
    action: entry.action.slice(0, 100),
    key: entry.key.slice(0, 500),
    ...(entry.old === undefined ? {} : { old: entry.old }),
    ...(entry.new === undefined ? {} : { new: entry.new }),
    secret: entry.secret === true,
  }));
  try {
    await deps.audit.append(records, Date.now());
  } catch (error) {
    // The change itself is made and stays; the log says which audit records are missing (keys only, no values).
    deps.log.error('could not store the audit record of a console change', {
      action: records[0]!.action,
      keys: records.map((record) => record.key),
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

/** The audit inputs of a configuration change (hostConfig.write's changes). */
export function auditChanges(action: string, changes: readonly ConfigChange[]): AuditInput[] {
  return changes.map((change) => ({
    action,
    key: change.key,
    old: change.old,
    new: change.new,
    secret: change.secret,
  }));
}

export const auditList: Handler<'admin.audit.list'> = async (deps, _account, params, { type }) => {
  const limit = optionalInteger(type, params, 'limit', 1, 200) ?? 50;
  const before = optionalInteger(type, params, 'before', 1, Number.MAX_SAFE_INTEGER);
  return deps.audit.list({ limit, ...(before === undefined ? {} : { before }) });
};

function optionalInteger(
  type: string,
  params: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    badParam(type, name, 'oneOf', value, { values: `${min}–${max}` });
  }
  return value;
}
