import { describe, expect, it } from 'vitest';
import type { EntryView, InputView, TurnView } from './conversation-types.js';
import { lastEditable, turnActions } from './message-actions.js';

const own: InputView = {
  key: 'i',
  text: 'hi',
  sender: { platform: 'webui', userId: 'alice' },
  attachments: [],
  pending: false,
};

function turn(id: string, extra: Partial<TurnView> = {}): TurnView {
  return {
    kind: 'turn',
    key: `turn-${id}`,
    turnId: id,
    inputs: [{ ...own, key: `i-${id}` }],
    items: [],
    outcome: 'replied',
    running: false,
    versions: [],
    ...extra,
  };
}

const context = { selfId: 'alice', canSend: true, running: false };

describe('turnActions', () => {
  it('offers Edit on the own messages, Regenerate on her last reply, Retry on a last turn that failed', () => {
    const entries: EntryView[] = [turn('t1'), turn('t2', { outcome: 'silent' })];
    expect(Object.fromEntries(turnActions(entries, context))).toEqual({
      'turn-t1': { edit: true, regenerate: false, retry: false },
      'turn-t2': { edit: true, regenerate: true, retry: false },
    });
    const failed = turnActions([turn('t1'), turn('t2', { outcome: 'error' })], context);
    expect(failed.get('turn-t2')).toEqual({ edit: true, regenerate: false, retry: true });
    expect(turnActions([turn('t3', { outcome: 'aborted' })], context).get('turn-t3')?.retry).toBe(true);
  });

  it('offers nothing while a turn runs, in read-only rooms, before a compression divider or on replaced turns', () => {
    const entries: EntryView[] = [turn('t1')];
    expect(turnActions(entries, { ...context, running: true }).size).toBe(0);
    expect(turnActions(entries, { ...context, canSend: false }).size).toBe(0);
    const compressed = turnActions([turn('t1'), { kind: 'divider', key: 'd' }, turn('t2')], context);
    expect([...compressed.keys()]).toEqual(['turn-t2']);
    const replaced = turnActions(
      [turn('t1'), turn('t2', { superseded: { rollbackId: 'r1', action: 'regenerate', at: 1 } })],
      context,
    );
    // t1 is the last live turn: its reply can be regenerated; the replaced one offers nothing.
    expect([...replaced.keys()]).toEqual(['turn-t1']);
    expect(replaced.get('turn-t1')?.regenerate).toBe(true);
  });

  it('does not offer Edit on someone else’s message or an injected one', () => {
    const other = turn('t1', { inputs: [{ ...own, sender: { platform: 'webui', userId: 'bob' } }] });
    const injected = turn('t2', { inputs: [{ ...own, source: 'scheduler' }], outcome: 'error' });
    const actions = turnActions([other, injected], context);
    expect(actions.get('turn-t1')).toBeUndefined();
    expect(actions.get('turn-t2')).toEqual({ edit: false, regenerate: false, retry: true });
  });

  it('↑ edits the last own message', () => {
    expect(lastEditable([turn('t1'), turn('t2')], context)?.turnId).toBe('t2');
    expect(lastEditable([turn('t1')], { ...context, running: true })).toBeUndefined();
  });
});
