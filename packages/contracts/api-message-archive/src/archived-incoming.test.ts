import { WellKnownMetadataKeys as Keys } from '@aalis/schema-message';
import { describe, expect, it } from 'vitest';
import { archivedIncoming, assertArchivableInput } from './archived-incoming.js';

describe('archivedIncoming', () => {
  it('records the facts of the input under the well-known keys and leaves out absent ones', () => {
    const stored = archivedIncoming({
      message: {
        sessionId: 's',
        platform: 'qq',
        sender: {},
        content: 'x',
        source: 'scheduler',
        triggerType: 'scheduled',
      },
      content: '[t] x',
      turnId: 't1',
      entry: 'opened',
      time: 5,
    });
    expect(stored).toEqual({
      role: 'user',
      content: '[t] x',
      timestamp: 5,
      metadata: {
        [Keys.TurnId]: 't1',
        [Keys.TurnEntry]: 'opened',
        [Keys.Source]: 'scheduler',
        [Keys.TriggerType]: 'scheduled',
        [Keys.Platform]: 'qq',
      },
    });
  });

  it('has no entry without a turn', () => {
    const stored = archivedIncoming({
      message: { sessionId: 's', platform: 'qq', sender: {}, content: 'x' },
      content: 'x',
      entry: 'joined',
      time: 5,
    });
    expect(stored.metadata).toEqual({ [Keys.Platform]: 'qq' });
  });
});

describe('assertArchivableInput', () => {
  it('refuses idle inputs and malformed ones with coded errors', () => {
    const ok = { sessionId: 's', platform: 'qq', sender: {}, content: 'x' };
    expect(() => assertArchivableInput(ok)).not.toThrow();
    expect(() => assertArchivableInput({ ...ok, triggerType: 'idle' })).toThrow(
      expect.objectContaining({ code: 'AALIS_ARCHIVE_IDLE_INPUT' }),
    );
    expect(() => assertArchivableInput({ ...ok, sessionId: '' })).toThrow(
      expect.objectContaining({ code: 'AALIS_ARCHIVE_INPUT_INVALID' }),
    );
  });
});
