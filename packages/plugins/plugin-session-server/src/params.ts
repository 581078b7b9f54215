// Reading request parameters: a wrong one is AALIS_WEBUI_BAD_REQUEST naming the parameter, what was expected and
// what came.
import { describeReceived, type Locale, translate } from '@aalis/core';
import { localizedMessages, serverErrors } from './server-errors.js';
import './server-texts.js';

/** What a parameter should have been: a phrase of the catalogue (`sessionServer.expected.<id>`). */
export type Expected =
  | 'nonEmptyString'
  | 'string'
  | 'boolean'
  | 'object'
  | 'array'
  | 'sessionId'
  | 'settingKey'
  | 'value'
  | 'layer'
  | 'layerNoVenue'
  | 'modelId'
  | 'preferenceValue'
  | 'socket'
  | 'oneOf'
  | 'accountId'
  | 'level'
  | 'integer'
  | 'password'
  | 'displayName'
  | 'budgetLimit';

/**
 * Throws AALIS_WEBUI_BAD_REQUEST for request `type`: the parameter `path` should have been `expected`.
 * `details.problems` is the documented `[{ path, expected, received }]` (English, for clients that match it); the
 * message is written in the locale it is answered in.
 */
export function badParam(
  type: string,
  path: string,
  expected: Expected,
  value: unknown,
  params?: Record<string, string>,
  /** Said instead of the value (its JavaScript type), when the value may be message content. */
  kindOnly = false,
): never {
  const phrase = (locale: Locale) =>
    translate({ key: `sessionServer.expected.${expected}`, ...(params ? { params } : {}) }, locale);
  const received = (locale: Locale) => (kindOnly ? typeof value : describeReceived(value, locale));
  const english = { path, expected: phrase('en'), received: received('en') };
  const error = serverErrors.AALIS_WEBUI_BAD_REQUEST(
    { type, problems: `${path}: expected ${english.expected}, received ${english.received}` },
    { details: { problems: [english] } },
  );
  localizedMessages.set(error, (locale) =>
    translate(
      {
        key: 'sessionServer.badParam',
        params: { type, path, expected: phrase(locale), received: received(locale) },
      },
      locale,
    ),
  );
  throw error;
}

export function requireString(type: string, params: Record<string, unknown>, name: string, max = 1024): string {
  const value = params[name];
  if (typeof value !== 'string' || value === '' || value.length > max) {
    badParam(type, name, 'nonEmptyString', value, { max: String(max) });
  }
  return value;
}

export function optionalString(
  type: string,
  params: Record<string, unknown>,
  name: string,
  max = 1024,
): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max) badParam(type, name, 'string', value, { max: String(max) });
  return value;
}

export function optionalRecord(
  type: string,
  params: Record<string, unknown>,
  name: string,
): Record<string, unknown> | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) badParam(type, name, 'object', value);
  return value as Record<string, unknown>;
}
