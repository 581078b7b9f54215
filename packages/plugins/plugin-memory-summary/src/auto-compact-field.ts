// The per-session auto-compaction line (session field `autoCompactRatio`), and how it is read.
import type { AnySessionField, SessionFieldsService, SettingsScope } from '@aalis/api-session-settings';
import { type ServiceHandle, textRef } from '@aalis/core';

export const AUTO_COMPACT_FIELD = 'autoCompactRatio';

export function autoCompactField(defaultRatio: number): AnySessionField {
  return {
    key: AUTO_COMPACT_FIELD,
    type: 'number',
    label: textRef('memorySummary.field.autoCompactRatio'),
    description: textRef('memorySummary.field.autoCompactRatio.description'),
    visibility: 'advanced',
    level: 'owner',
    default: defaultRatio,
    validate: (value) => (value >= 0 && value <= 1 ? undefined : textRef('memorySummary.field.autoCompactRatio.range')),
  };
}

/** The session's line; the plugin config's when session settings (or the field) are absent or unreadable. */
export async function readAutoCompactRatio({
  sessionFields,
  scope,
  fallback,
}: {
  sessionFields: ServiceHandle<SessionFieldsService>;
  scope: SettingsScope;
  fallback: number;
}): Promise<number> {
  if (!sessionFields.available || !sessionFields.use.field(AUTO_COMPACT_FIELD)) return fallback;
  try {
    const { value } = await sessionFields.use.get(scope, AUTO_COMPACT_FIELD);
    return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  } catch {
    // A settings store that cannot be read now must not stop compaction: the configured line applies.
    return fallback;
  }
}
