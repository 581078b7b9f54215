// Reading request parameters: a wrong one is AALIS_WEBUI_BAD_REQUEST naming the parameter, what was expected and
// what came.
import { describeReceived } from '@aalis/core';
import { serverErrors } from './server-errors.js';

/**
 * Throws AALIS_WEBUI_BAD_REQUEST for request `type`: the parameter `path` should have been `expected`;
 * `details.problems` is the documented `[{ path, expected, received }]`.
 */
export function badParam(type: string, path: string, expected: string, value: unknown): never {
  const received = describeReceived(value);
  throw serverErrors.AALIS_WEBUI_BAD_REQUEST(
    { type, problems: `${path}: expected ${expected}, received ${received}` },
    { details: { problems: [{ path, expected, received }] } },
  );
}

export function requireString(type: string, params: Record<string, unknown>, name: string, max = 1024): string {
  const value = params[name];
  if (typeof value !== 'string' || value === '' || value.length > max) {
    badParam(type, name, `a non-empty string of at most ${max} characters`, value);
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
  if (typeof value !== 'string' || value.length > max)
    badParam(type, name, `a string of at most ${max} characters`, value);
  return value;
}

export function optionalRecord(
  type: string,
  params: Record<string, unknown>,
  name: string,
): Record<string, unknown> | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) badParam(type, name, 'an object', value);
  return value as Record<string, unknown>;
}
