// Checks of what platforms hand to receive() and what the agent hands to dispatchOutbound().
import { gatewayErrors } from '@aalis/api-gateway';
import { describeReceived } from '@aalis/core';
import { type IncomingMessage, isNoticeText, type OutgoingMessage } from '@aalis/schema-message';

const OUTGOING_KINDS = ['reply', 'error', 'system'];

export function assertIncoming(message: IncomingMessage): void {
  const fail = (field: string, expected: string, received: unknown) => {
    throw gatewayErrors.AALIS_GATEWAY_MESSAGE_INVALID({ field, expected, received: describeReceived(received) });
  };
  if (typeof message !== 'object' || message === null) fail('(message)', 'an object', message);
  if (typeof message.sessionId !== 'string' || message.sessionId === '') {
    fail('sessionId', 'a non-empty string', message.sessionId);
  }
  if (typeof message.platform !== 'string' || message.platform === '') {
    fail('platform', 'a non-empty string', message.platform);
  }
  if (typeof message.sender !== 'object' || message.sender === null) fail('sender', 'an object', message.sender);
  if (typeof message.content !== 'string') fail('content', 'a string', message.content);
}

export function assertOutgoing(message: OutgoingMessage): void {
  const fail = (field: string, expected: string, received: unknown) => {
    throw gatewayErrors.AALIS_GATEWAY_OUTBOUND_INVALID({ field, expected, received: describeReceived(received) });
  };
  if (typeof message !== 'object' || message === null) fail('(message)', 'an object', message);
  if (typeof message.sessionId !== 'string' || message.sessionId === '') {
    fail('sessionId', 'a non-empty string', message.sessionId);
  }
  if (typeof message.content !== 'string') fail('content', 'a string', message.content);
  if (!OUTGOING_KINDS.includes(message.kind)) fail('kind', OUTGOING_KINDS.join(' | '), message.kind);
  if (message.text !== undefined && !isNoticeText(message.text)) {
    fail('text', 'a catalogue text { key, params? } (params: strings, numbers or catalogue texts)', message.text);
  }
}
