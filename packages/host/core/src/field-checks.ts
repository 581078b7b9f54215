// Plain checks of an object handed across a service boundary (a platform's input, an outgoing reply), for the coded
// error that says which field was wrong, what was expected and what came instead.
import { describeReceived } from './schema.js';

export interface FieldCheck {
  field: string;
  /** What the field must be, in the words of the error: 'a non-empty string'. */
  expected: string;
  test(value: unknown): boolean;
}

/** The details of a failed check, as the coded errors take them (a type, so it is a Params record). */
export type FieldProblem = { field: string; expected: string; received: string };

export const fieldIs = {
  string: (field: string): FieldCheck => ({ field, expected: 'a string', test: (value) => typeof value === 'string' }),
  nonEmptyString: (field: string): FieldCheck => ({
    field,
    expected: 'a non-empty string',
    test: (value) => typeof value === 'string' && value !== '',
  }),
  object: (field: string): FieldCheck => ({
    field,
    expected: 'an object',
    test: (value) => typeof value === 'object' && value !== null,
  }),
};

/**
 * The first check `value` fails, or undefined when it passes them all. `whole` is the check of the value itself (an
 * object), made first: a value that is no object fails it, not a field.
 */
export function failedField(
  value: unknown,
  whole: Pick<FieldCheck, 'field' | 'expected'>,
  checks: readonly FieldCheck[],
): FieldProblem | undefined {
  const failed = (check: Pick<FieldCheck, 'field' | 'expected'>, received: unknown): FieldProblem => ({
    field: check.field,
    expected: check.expected,
    received: describeReceived(received),
  });
  if (typeof value !== 'object' || value === null) return failed(whole, value);
  const fields = value as Record<string, unknown>;
  for (const check of checks) if (!check.test(fields[check.field])) return failed(check, fields[check.field]);
  return undefined;
}
