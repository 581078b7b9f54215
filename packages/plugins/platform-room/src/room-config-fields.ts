// Config keys several room adapters have with the same meaning (the connection's backoff, an API call's time limit,
// the longest reply, the socket's ping, a callback's size): one definition each, the adapter naming only what differs
// (what is reconnected, which calls, its platform's message limit). A light module: the runtime reads the adapters'
// schemas without loading them.
import { s } from '@aalis/core';

/** `retryDelayMs`: the first pause before `before` ('reconnecting the gateway'); doubles per failed try, ≤ a minute. */
export function retryDelayField(before: string, note = '') {
  return s
    .number()
    .integer()
    .min(10)
    .default(1_000)
    .describe(`Pause before ${before}; doubles after each failed try, up to a minute.${note}`);
}

/** `apiTimeoutMs`: how long one call to the platform may take (`call`: 'API call', 'REST request' …). */
export function apiTimeoutField(call = 'API call') {
  return s.number().integer().min(1_000).default(15_000).describe(`How long one ${call} may take.`);
}

/** `maxMessageLength`: longer replies go as several messages; `limit` says the platform's own, where it has one. */
export function maxMessageLengthField({ max, byDefault, limit }: { max: number; byDefault: number; limit?: string }) {
  return s
    .number()
    .integer()
    .min(100)
    .max(max)
    .default(byDefault)
    .describe(`Longer replies are sent as several messages${limit ? ` (${limit})` : ''}.`);
}

/** `pingIntervalMs`: how often the `socket` ('event socket') is pinged; silent for two intervals, it is reconnected. */
export function pingIntervalField(socket = 'socket') {
  return s
    .number()
    .integer()
    .min(1_000)
    .default(10_000)
    .describe(`How often the ${socket} is pinged; a socket that answers no ping for twice as long is reconnected.`);
}

/** `maxBodyBytes`: the largest platform callback accepted (1 MiB by default); a larger one is answered 413. */
export function callbackBodyField() {
  return s
    .number()
    .integer()
    .min(1_024)
    .default(1024 * 1024)
    .describe('The largest callback body accepted; larger ones are refused (413).');
}
