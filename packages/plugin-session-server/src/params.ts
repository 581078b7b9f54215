// Reading request parameters: a wrong one is AALIS_WEBUI_BAD_REQUEST naming the parameter, what was expected and
// what came.
import { describeReceived } from '@aalis/core';
import { serverErrors } from './server-errors.js';

function problem(type: string, name: string, expected: string, value: unknown): never {
  throw serverErrors.AALIS_WEBUI_BAD_REQUEST(
    { type, problems: `${name}: expected ${expected}, received ${describeReceived(value)}` },
    { details: { problems: [{ path: name, expected, received: describeReceived(value) }] } },
  );
}

export function requireString(type: string, params: Record<string, unknown>, name: string, max = 1024): string {
  const value = params[name];
  if (typeof value !== 'string' || value === '' || value.length > max) {
    problem(type, name, `a non-empty string of at most ${max} characters`, value);
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
    problem(type, name, `a string of at most ${max} characters`, value);
  return value;
}

export function optionalRecord(
  type: string,
  params: Record<string, unknown>,
  name: string,
): Record<string, unknown> | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) problem(type, name, 'an object', value);
  return value as Record<string, unknown>;
}
