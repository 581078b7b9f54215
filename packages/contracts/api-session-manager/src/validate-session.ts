// Input checks shared by session manager implementations: they throw AALIS_SESSION_INVALID (or
// AALIS_SESSION_PARENT_MISMATCH) before anything is written.
import { describeReceived } from '@aalis/core';
import { sessionErrors } from './session-errors.js';
import { type LastTurn, SESSION_KINDS, type SessionInit, type SessionPatch } from './session-info.js';

const MAX_ID_LENGTH = 512;
const OUTCOMES = ['replied', 'silent', 'aborted', 'error'];

function fail(id: unknown, field: string, expected: string, received: unknown): never {
  throw sessionErrors.AALIS_SESSION_INVALID({
    id: typeof id === 'string' ? id : describeReceived(id),
    field,
    expected,
    received: describeReceived(received),
  });
}

/** Checks a session id: a string of 1–512 characters. */
export function assertSessionId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
    fail(id, 'id', `a string of 1–${MAX_ID_LENGTH} characters`, id);
  }
}

function optionalString(id: string, record: Record<string, unknown>, field: string, allowNull = false): void {
  const value = record[field];
  if (value === undefined || (allowNull && value === null)) return;
  if (typeof value !== 'string' || value.length === 0) fail(id, field, 'a non-empty string', value);
}

function optionalOriginChat(id: string, value: unknown, allowNull = false): void {
  if (value === undefined || (allowNull && value === null)) return;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { multiParty?: unknown }).multiParty !== 'boolean'
  ) {
    fail(id, 'originChat', '{ multiParty: boolean }', value);
  }
}

export function assertValidSessionInit(init: SessionInit): void {
  if (typeof init !== 'object' || init === null) fail(undefined, '(session)', 'an object', init);
  assertSessionId(init.id);
  const record = init as unknown as Record<string, unknown>;
  if (!SESSION_KINDS.includes(init.kind)) fail(init.id, 'kind', SESSION_KINDS.join(' | '), init.kind);
  if (typeof init.platform !== 'string' || init.platform.length === 0) {
    fail(init.id, 'platform', 'a non-empty string', init.platform);
  }
  for (const field of ['venue', 'originPlatform', 'title']) optionalString(init.id, record, field);
  if (init.parentId !== undefined) assertSessionId(init.parentId);
  optionalOriginChat(init.id, init.originChat);
  if ((init.kind === 'child') !== (init.parentId !== undefined)) {
    throw sessionErrors.AALIS_SESSION_PARENT_MISMATCH({ id: init.id, kind: init.kind });
  }
  if (init.parentId === init.id) fail(init.id, 'parentId', 'another session', init.parentId);
}

export function assertValidPatch(id: string, patch: SessionPatch): void {
  if (typeof patch !== 'object' || patch === null) fail(id, '(patch)', 'an object', patch);
  const record = patch as unknown as Record<string, unknown>;
  const known = ['title', 'originChat', 'originPlatform', 'venue', 'pinnedAt', 'archivedAt'];
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) fail(id, key, `one of ${known.join(', ')}`, record[key]);
  }
  for (const field of ['title', 'originPlatform', 'venue']) optionalString(id, record, field, true);
  optionalOriginChat(id, patch.originChat, true);
  for (const field of ['pinnedAt', 'archivedAt']) {
    const value = record[field];
    if (value !== undefined && value !== null && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
      fail(id, field, 'milliseconds since the epoch, or null', value);
    }
  }
}

export function assertValidLastTurn(id: string, lastTurn: LastTurn): void {
  if (typeof lastTurn !== 'object' || lastTurn === null) fail(id, 'lastTurn', 'an object', lastTurn);
  if (typeof lastTurn.turnId !== 'string' || lastTurn.turnId === '') {
    fail(id, 'lastTurn.turnId', 'a non-empty string', lastTurn.turnId);
  }
  if (!OUTCOMES.includes(lastTurn.outcome)) fail(id, 'lastTurn.outcome', OUTCOMES.join(' | '), lastTurn.outcome);
  if (lastTurn.error !== undefined && typeof lastTurn.error !== 'string') {
    fail(id, 'lastTurn.error', 'a string', lastTurn.error);
  }
  if (typeof lastTurn.at !== 'number' || !Number.isFinite(lastTurn.at))
    fail(id, 'lastTurn.at', 'a time in ms', lastTurn.at);
}
