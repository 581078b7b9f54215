// Reading the parameters of the account requests: ids, levels, display names and passwords. A wrong one is
// AALIS_WEBUI_BAD_REQUEST naming it; a password is never echoed (only its JavaScript type).
import { ACCOUNT_ID_PATTERN } from '../login-link.js';
import { badParam } from '../params.js';
import '../server-texts.js';
import './account-texts.js';

export const MAX_LEVEL = 1_000_000;
const DISPLAY_NAME_CHARS = 64;

export function accountIdParam(type: string, params: Record<string, unknown>, name = 'userId'): string {
  const value = params[name];
  if (typeof value !== 'string' || !ACCOUNT_ID_PATTERN.test(value)) badParam(type, name, 'accountId', value);
  return value;
}

export function levelParam(type: string, params: Record<string, unknown>): number | undefined {
  const value = params.level;
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_LEVEL) {
    badParam(type, 'level', 'level', value);
  }
  return value;
}

/** undefined: not given; null: remove. */
export function displayNameParam(type: string, params: Record<string, unknown>): string | null | undefined {
  const value = params.displayName;
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string' || value.trim() === '' || value.length > DISPLAY_NAME_CHARS) {
    badParam(type, 'displayName', 'displayName', value, { max: String(DISPLAY_NAME_CHARS) });
  }
  return value.trim();
}

/** undefined: not given; null (where `nullable`): remove. Policy (length) is checked by checkPasswordPolicy. */
export function passwordParam(
  type: string,
  params: Record<string, unknown>,
  name: string,
  nullable: boolean,
): string | null | undefined {
  const value = params[name];
  if (value === undefined || (nullable && value === null)) return value as null | undefined;
  if (typeof value !== 'string') badParam(type, name, 'password', value, undefined, true);
  return value;
}

export function integerParam(
  type: string,
  params: Record<string, unknown>,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): number {
  const value = params[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    badParam(type, name, 'integer', value, { min: String(min), max: String(max) });
  }
  return value;
}
