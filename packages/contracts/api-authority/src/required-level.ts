// Authority levels and the one rule that decides whether someone meets a required level.

/**
 * What a command, tool or setting requires: an integer level ≥ 0 (0 = everyone; higher = more trusted) or
 * 'owner'. Owners are above every level.
 */
export type RequiredLevel = number | 'owner';

/** Whether someone at `level` (owner or not) meets `required`. Owners meet everything; 'owner' needs an owner. */
export function meetsLevel({
  level,
  isOwner,
  required,
}: {
  level: number;
  isOwner: boolean;
  required: RequiredLevel | undefined;
}): boolean {
  if (isOwner) return true;
  if (required === 'owner') return false;
  return level >= (required ?? 0);
}

/** Whether a value is a valid RequiredLevel (an integer ≥ 0 or 'owner'). */
export function isRequiredLevel(value: unknown): value is RequiredLevel {
  return value === 'owner' || isLevel(value);
}

/** Whether a value is a valid authority level: an integer ≥ 0. */
export function isLevel(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Short display of a required level: '2' or 'owner'. */
export function describeRequiredLevel(required: RequiredLevel | undefined): string {
  return required === 'owner' ? 'owner' : String(required ?? 0);
}
