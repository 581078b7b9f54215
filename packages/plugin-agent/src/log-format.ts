// Small helpers of the turn log lines: an input's arrival number (#n, empty without one) and an error's text.
import type { IncomingMessage } from '@aalis/schema-message';

export function arrivalOf(message: IncomingMessage): string {
  return message.arrival === undefined ? '' : `#${message.arrival}`;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
