// Checks of what platforms hand to receive() and what the agent hands to dispatchOutbound().
import { gatewayErrors } from '@aalis/api-gateway';
import { type FieldCheck, failedField, fieldIs } from '@aalis/core';
import { type IncomingMessage, isNoticeText, type OutgoingMessage } from '@aalis/schema-message';

const OUTGOING_KINDS: unknown[] = ['reply', 'error', 'system'];
const MESSAGE = { field: '(message)', expected: 'an object' };

const INCOMING_FIELDS: readonly FieldCheck[] = [
  fieldIs.nonEmptyString('sessionId'),
  fieldIs.nonEmptyString('platform'),
  fieldIs.object('sender'),
  fieldIs.string('content'),
];

const OUTGOING_FIELDS: readonly FieldCheck[] = [
  fieldIs.nonEmptyString('sessionId'),
  fieldIs.string('content'),
  { field: 'kind', expected: OUTGOING_KINDS.join(' | '), test: (kind) => OUTGOING_KINDS.includes(kind) },
  {
    field: 'text',
    expected: 'a catalogue text { key, params? } (params: strings, numbers or catalogue texts)',
    test: (text) => text === undefined || isNoticeText(text),
  },
];

export function assertIncoming(message: IncomingMessage): void {
  const problem = failedField(message, MESSAGE, INCOMING_FIELDS);
  if (problem) throw gatewayErrors.AALIS_GATEWAY_MESSAGE_INVALID(problem);
}

export function assertOutgoing(message: OutgoingMessage): void {
  const problem = failedField(message, MESSAGE, OUTGOING_FIELDS);
  if (problem) throw gatewayErrors.AALIS_GATEWAY_OUTBOUND_INVALID(problem);
}
