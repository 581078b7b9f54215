import type { TimelineInput, TimelineTurn } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { ConversationModel } from './conversation-model.js';
import type { TextItemView, ToolCardView, TurnView } from './conversation-types.js';

const alice = { platform: 'webui', userId: 'alice', displayName: 'Alice' };

function input(id: string, text: string, extra: Partial<TimelineInput> = {}): TimelineInput {
  return { id, messageId: `m-${id}`, entry: 'opened', text, sender: alice, at: 1, attachments: [], ...extra };
}

function turn(turnId: string, extra: Partial<TimelineTurn> = {}): TimelineTurn {
  return { kind: 'turn', turnId, inputs: [], items: [], running: false, startedAt: 1, ...extra };
}

const turnsOf = (model: ConversationModel) =>
  model.getSnapshot().entries.filter((entry): entry is TurnView => entry.kind === 'turn');

describe('ConversationModel', () => {
  it('restores the timeline: inputs, items in order, tool cards by callId, outcomes, 未发出 and joined inputs', () => {
    const model = new ConversationModel('webui:alice');
    expect(model.getSnapshot().loaded).toBe(false);
    model.load({
      sessionId: 'webui:alice',
      truncated: false,
      waiting: [],
      entries: [
        turn('t1', {
          inputs: [input('1', 'what time is it?')],
          items: [
            {
              kind: 'tool',
              callId: 'c1',
              segment: 0,
              name: 'current_time',
              arguments: '{"zone":"UTC"}',
              state: 'done',
              result: '12:00',
              durationMs: 3,
            },
            { kind: 'input', input: input('2', 'and the date?', { entry: 'joined' }) },
            { kind: 'text', id: 'x', segment: 1, text: 'It is noon.', reasoning: 'easy', unsent: false, final: true },
          ],
          outcome: 'replied',
        }),
        turn('t2', { inputs: [input('3', 'stop that')], outcome: 'aborted', stoppedBy: alice }),
        turn('t3', {
          items: [{ kind: 'text', id: 'y', segment: 0, text: 'aside', unsent: true, final: false }],
          outcome: 'error',
          error: 'The model server refused.',
        }),
        { kind: 'divider', id: 'd', at: 2 },
      ],
    });
    const snapshot = model.getSnapshot();
    expect(snapshot.loaded).toBe(true);
    expect(snapshot.runningTurnId).toBeUndefined();
    expect(snapshot.entries.map((entry) => entry.kind)).toEqual(['turn', 'turn', 'turn', 'divider']);
    const [first, second, third] = turnsOf(model);
    expect(first!.items.map((item) => item.kind)).toEqual(['tool', 'input', 'text']);
    expect(first!.items[0]).toMatchObject({
      callId: 'c1',
      state: 'done',
      argumentsText: '{\n  "zone": "UTC"\n}',
      durationMs: 3,
    });
    expect(first!.items[2]).toMatchObject({ text: 'It is noon.', reasoning: 'easy', unsent: false });
    expect(second).toMatchObject({ outcome: 'aborted', stoppedBy: { userId: 'alice' } });
    expect(third).toMatchObject({ outcome: 'error', error: 'The model server refused.' });
    expect((third!.items[0] as TextItemView).unsent).toBe(true);
  });

  it('streams a turn: reasoning and text per model call, a tool card from its progress to its end, the outcome', () => {
    const model = new ConversationModel('s');
    model.apply({ type: 'turn.started', turnId: 't1', at: 1 });
    model.apply({ type: 'input', turnId: 't1', input: input('1', 'calc') });
    model.apply({ type: 'reasoning.delta', turnId: 't1', segment: 0, delta: 'let me ' });
    model.apply({ type: 'reasoning.delta', turnId: 't1', segment: 0, delta: 'think' });
    model.apply({ type: 'tool.progress', turnId: 't1', segment: 0, callId: 'c9', index: 0, name: 'calculator' });
    model.apply({
      type: 'tool.progress',
      turnId: 't1',
      segment: 0,
      callId: 'c9',
      index: 0,
      argumentsDelta: '{"expression":',
    });
    model.apply({ type: 'tool.progress', turnId: 't1', segment: 0, callId: 'c9', index: 0, argumentsDelta: '"6*7"}' });
    let [live] = turnsOf(model);
    expect(model.getSnapshot().runningTurnId).toBe('t1');
    expect(live!.running).toBe(true);
    expect(live!.inputs.map((entry) => entry.text)).toEqual(['calc']);
    expect(live!.items[0]).toMatchObject({ kind: 'text', segment: 0, reasoning: 'let me think', text: '' });
    expect(live!.items[1]).toMatchObject({ kind: 'tool', state: 'writing', argumentsText: '{"expression":"6*7"}' });
    model.apply({
      type: 'tool.started',
      turnId: 't1',
      segment: 0,
      callId: 'c9',
      name: 'calculator',
      arguments: '{"expression":"6*7"}',
    });
    expect((turnsOf(model)[0]!.items[1] as ToolCardView).state).toBe('running');
    model.apply({
      type: 'tool.ended',
      turnId: 't1',
      callId: 'c9',
      name: 'calculator',
      result: '42',
      isError: false,
      durationMs: 2.4,
    });
    model.apply({ type: 'text.delta', turnId: 't1', segment: 1, delta: 'It is ' });
    model.apply({ type: 'text.delta', turnId: 't1', segment: 1, delta: '42.' });
    [live] = turnsOf(model);
    expect(live!.items).toHaveLength(3);
    expect(live!.items[1]).toMatchObject({ state: 'done', result: '42', durationMs: 2 });
    expect(live!.items[2]).toMatchObject({ kind: 'text', segment: 1, text: 'It is 42.' });
    model.apply({ type: 'turn.ended', turnId: 't1', outcome: 'replied', unsentSegments: [] });
    [live] = turnsOf(model);
    expect(live).toMatchObject({ running: false, outcome: 'replied' });
    expect(model.getSnapshot().runningTurnId).toBeUndefined();
  });

  it('marks a failed tool call with its error, and unsent segments as 未发出 when the turn ends', () => {
    const model = new ConversationModel('s');
    model.apply({
      type: 'tool.started',
      turnId: 't1',
      segment: 0,
      callId: 'c1',
      name: 'calculator',
      arguments: '{bad',
    });
    model.apply({
      type: 'tool.ended',
      turnId: 't1',
      callId: 'c1',
      name: 'calculator',
      result: 'not JSON',
      isError: true,
      durationMs: 0,
    });
    model.apply({ type: 'text.delta', turnId: 't1', segment: 1, delta: 'thinking aloud' });
    model.apply({ type: 'text.delta', turnId: 't1', segment: 2, delta: 'the answer' });
    model.apply({ type: 'turn.ended', turnId: 't1', outcome: 'replied', unsentSegments: [1] });
    const items = turnsOf(model)[0]!.items;
    expect(items[0]).toMatchObject({ state: 'error', argumentsText: '{bad', result: 'not JSON' });
    expect(items.filter((item) => item.kind === 'text').map((item) => (item as TextItemView).unsent)).toEqual([
      true,
      false,
    ]);
  });

  it('a failed turn shows its error once, live as after a reload: the outcome, not also the [错误] notice', () => {
    const live = new ConversationModel('s');
    live.load({ sessionId: 's', entries: [], waiting: [], truncated: false });
    live.apply({ type: 'turn.started', turnId: 't1', at: 1 });
    live.apply({ type: 'input', turnId: 't1', input: input('1', 'hi') });
    live.apply({ type: 'message', turnId: 't1', kind: 'system', text: '[系统] kept' });
    live.apply({ type: 'message', turnId: 't1', kind: 'error', text: '[错误] the model failed (HTTP 500)' });
    live.apply({
      type: 'turn.ended',
      turnId: 't1',
      outcome: 'error',
      error: 'the model failed (HTTP 500)',
      unsentSegments: [],
    });
    const [turnView] = turnsOf(live);
    expect(turnView).toMatchObject({ outcome: 'error', error: 'the model failed (HTTP 500)' });
    expect(turnView!.items).toEqual([expect.objectContaining({ kind: 'notice', tone: 'info', text: '[系统] kept' })]);
    const reloaded = new ConversationModel('s');
    reloaded.load({
      sessionId: 's',
      entries: [turn('t1', { inputs: [input('1', 'hi')], outcome: 'error', error: 'the model failed (HTTP 500)' })],
      waiting: [],
      truncated: false,
    });
    expect(turnsOf(reloaded)[0]!.items.filter((item) => item.kind === 'notice' && item.tone === 'error')).toEqual([]);
    expect(turnsOf(reloaded)[0]).toMatchObject({ outcome: 'error', error: turnView!.error });
  });

  it('a stopped turn keeps the tool calls that ran and what streamed, marked as stopped and not kept', () => {
    const model = new ConversationModel('s');
    model.apply({ type: 'turn.started', turnId: 't1', at: 1 });
    model.apply({
      type: 'tool.started',
      turnId: 't1',
      segment: 0,
      callId: 'c1',
      name: 'current_time',
      arguments: '{}',
    });
    model.apply({
      type: 'tool.ended',
      turnId: 't1',
      callId: 'c1',
      name: 'current_time',
      result: 'now',
      isError: false,
      durationMs: 1,
    });
    model.apply({ type: 'tool.progress', turnId: 't1', segment: 1, callId: 'c2', index: 0, name: 'calculator' });
    model.apply({ type: 'text.delta', turnId: 't1', segment: 1, delta: 'half a sen' });
    model.apply({ type: 'turn.ended', turnId: 't1', outcome: 'aborted', stoppedBy: alice, unsentSegments: [] });
    const [stopped] = turnsOf(model);
    // The call still being written goes; the call that ran and the text the reader saw stay.
    expect(stopped!.items.map((item) => item.key)).toEqual(['tool-c1', 'text-1']);
    expect(stopped!.items[1]).toMatchObject({ kind: 'text', text: 'half a sen', stopped: true });
    expect(stopped).toMatchObject({ outcome: 'aborted', stoppedBy: { displayName: 'Alice' } });
  });

  it('shows a send as pending until its input is placed, and what waits to join or is queued', () => {
    const model = new ConversationModel('s');
    model.apply({ type: 'turn.started', turnId: 't1', at: 1 });
    model.sending('k1', { text: 'second', attachments: [] });
    expect(model.getSnapshot().pending).toEqual([expect.objectContaining({ text: 'second', pending: true })]);
    model.sendAccepted('k1', 'm-2');
    model.apply({
      type: 'queue',
      removed: [],
      dispositions: {},
      added: [{ key: 'm-2', messageId: 'm-2', text: 'second', sender: alice, at: 2, disposition: 'join' }],
    });
    expect(model.getSnapshot().waiting).toEqual([expect.objectContaining({ text: 'second', state: 'join' })]);
    // Shown once: the waiting entry stands for the message now, not a second 「发送中…」 bubble.
    expect(model.getSnapshot().pending).toEqual([]);
    model.apply({ type: 'queue', removed: ['m-2'], dispositions: {}, added: [] });
    model.apply({ type: 'input', turnId: 't1', input: input('2', 'second', { entry: 'joined' }) });
    const snapshot = model.getSnapshot();
    expect(snapshot.pending).toEqual([]);
    expect(snapshot.waiting).toEqual([]);
    expect(turnsOf(model)[0]!.items[0]).toMatchObject({ kind: 'input', input: { text: 'second', entry: 'joined' } });
  });

  it('a send waiting to join or queued is shown once, whether its queue entry or its acceptance comes first', () => {
    const model = new ConversationModel('s');
    model.apply({ type: 'turn.started', turnId: 't1', at: 1 });
    model.sending('k1', { text: 'queued first', attachments: [] });
    model.apply({
      type: 'queue',
      removed: [],
      dispositions: {},
      added: [{ key: 'm-3', messageId: 'm-3', text: 'queued first', sender: alice, at: 2, disposition: 'queue' }],
    });
    expect(model.getSnapshot().pending).toHaveLength(1); // not known to be this send until `send` answers
    model.sendAccepted('k1', 'm-3');
    expect(model.getSnapshot().pending).toEqual([]);
    expect(model.getSnapshot().waiting).toEqual([expect.objectContaining({ text: 'queued first', state: 'queue' })]);
    model.apply({ type: 'queue', removed: ['m-3'], dispositions: {}, added: [] });
    model.apply({ type: 'input', turnId: 't2', input: input('3', 'queued first') });
    expect(model.getSnapshot().pending).toEqual([]);
  });

  it('says when the server sent only the latest entries of a long history (timeline.truncated)', () => {
    const model = new ConversationModel('s');
    model.load({ sessionId: 's', entries: [turn('t9')], waiting: [], truncated: true });
    expect(model.getSnapshot().truncated).toBe(true);
    model.load({ sessionId: 's', entries: [], waiting: [], truncated: false });
    expect(model.getSnapshot().truncated).toBe(false);
  });

  it('drops a refused send; a send accepted after its input arrived leaves nothing pending', () => {
    const model = new ConversationModel('s');
    model.sending('k1', { text: 'too long', attachments: [] });
    model.sendFailed('k1');
    expect(model.getSnapshot().pending).toEqual([]);
    model.sending('k2', { text: 'quick', attachments: [] });
    model.apply({ type: 'input', turnId: 't1', input: input('5', 'quick') });
    model.sendAccepted('k2', 'm-5');
    expect(model.getSnapshot().pending).toEqual([]);
  });

  it('notices and delivery failures join their turn or stand alone; deletion is reported', () => {
    const model = new ConversationModel('s');
    model.apply({ type: 'turn.started', turnId: 't1', at: 1 });
    model.apply({ type: 'message', turnId: 't1', kind: 'error', text: '[错误] boom' });
    model.apply({ type: 'delivery.failed', turnId: 't1', text: 'not delivered', at: 5 });
    model.apply({ type: 'delivery.failed', text: 'not delivered either', at: 6 });
    const snapshot = model.getSnapshot();
    expect(turnsOf(model)[0]!.items.map((item) => item.kind === 'notice' && item.tone)).toEqual([
      'error',
      'delivery-failure',
    ]);
    expect(snapshot.entries.at(-1)).toMatchObject({ kind: 'note', text: 'not delivered either' });
    model.apply({ type: 'session.deleted', sessionId: 's' });
    expect(model.getSnapshot()).toMatchObject({ deleted: true, runningTurnId: undefined });
  });

  it('keeps a notice in both languages when the server sent them, live and from the timeline', () => {
    const texts = (word: string) => ({ 'zh-CN': `[系统] ${word}`, en: `[System] ${word}` });
    const model = new ConversationModel('s');
    model.load({
      sessionId: 's',
      truncated: false,
      waiting: [],
      entries: [
        turn('t0', {
          items: [
            { kind: 'notice', id: 'n0', tone: 'delivery-failure', text: '[系统] old', texts: texts('old'), at: 1 },
          ],
        }),
        { kind: 'note', id: 'n1', tone: 'info', text: '[系统] stored', texts: texts('stored'), at: 2 },
        // A row stored before texts were kept.
        { kind: 'note', id: 'n2', tone: 'info', text: '[系统] older', at: 3 },
      ],
    });
    model.apply({ type: 'turn.started', turnId: 't1', at: 4 });
    model.apply({ type: 'message', turnId: 't1', kind: 'system', text: '[系统] live', texts: texts('live') });
    model.apply({ type: 'delivery.failed', turnId: 't1', text: 'reason', texts: texts('failed'), at: 5 });
    model.apply({ type: 'message', kind: 'system', text: '[系统] outside', texts: texts('outside') });
    const entries = model.getSnapshot().entries;
    const shown = entries.flatMap((entry) =>
      entry.kind === 'turn'
        ? entry.items.flatMap((item) => (item.kind === 'notice' ? [item.texts?.en ?? item.text] : []))
        : entry.kind === 'note'
          ? [entry.texts?.en ?? entry.text]
          : [],
    );
    expect(shown).toEqual([
      '[System] old',
      '[System] stored',
      '[系统] older',
      '[System] live',
      '[System] failed',
      '[System] outside',
    ]);
  });

  it('shows a notice that answers a held-back input after that input, though it arrived first', () => {
    const model = new ConversationModel('s');
    model.apply({ type: 'message', kind: 'system', text: 'held back', replyTo: 'm-7' });
    model.apply({ type: 'message', kind: 'system', text: 'something else' });
    model.apply({ type: 'input', input: input('7', 'hello again?', { messageId: 'm-7' }) });
    const order = model
      .getSnapshot()
      .entries.map((entry) =>
        entry.kind === 'note' ? entry.text : entry.kind === 'released' ? entry.input.text : '?',
      );
    expect(order).toEqual(['something else', 'hello again?', 'held back']);
  });

  it('drops the note of a command answer that came before the command was shown (no answer twice)', () => {
    const model = new ConversationModel('s');
    model.sending('k1', { text: '/session.set historyLimit many', attachments: [] }, 'page-k1');
    model.apply({ type: 'message', kind: 'system', text: 'Nothing was changed. (AALIS_X)', replyTo: 'm-set' });
    model.apply({ type: 'message', kind: 'system', text: 'a notice of its own' });
    model.sendAccepted('k1', 'm-set', { routed: 'command', reply: 'Nothing was changed. (AALIS_X)' });
    expect(model.getSnapshot().entries.map((entry) => entry.kind)).toEqual(['note', 'command']);
    expect(model.getSnapshot().entries[0]).toMatchObject({ text: 'a notice of its own' });
  });

  it('a command settles at once with its answer, and the stored command event replaces it without a duplicate', () => {
    const model = new ConversationModel('s');
    model.sending('k1', { text: '/help', attachments: [] }, 'page-k1');
    expect(model.getSnapshot().pending).toHaveLength(1);
    model.sendAccepted('k1', 'm-help', { routed: 'command', reply: '- /help\n- /clear' });
    const snapshot = model.getSnapshot();
    expect(snapshot.pending).toEqual([]);
    expect(snapshot.entries).toEqual([
      expect.objectContaining({
        kind: 'command',
        reply: '- /help\n- /clear',
        input: expect.objectContaining({ text: '/help', pending: false }),
      }),
    ]);
    // Its answer also arrives as a message without a turn: not shown twice.
    model.apply({ type: 'message', kind: 'system', text: '- /help\n- /clear' });
    model.apply({
      type: 'command',
      entry: {
        kind: 'command',
        id: 'c1',
        messageId: 'm-help',
        clientMessageId: 'page-k1',
        text: '/help',
        sender: alice,
        at: 5,
        reply: '- /help\n- /clear',
        replyAt: 6,
      },
    });
    expect(model.getSnapshot().entries).toEqual([expect.objectContaining({ kind: 'command', key: 'command-c1' })]);
    // After a reload, from the timeline.
    const reloaded = new ConversationModel('s');
    reloaded.load({
      sessionId: 's',
      truncated: false,
      waiting: [],
      entries: [{ kind: 'command', id: 'c1', text: '/help', sender: alice, at: 5, reply: 'ok' }],
    });
    expect(reloaded.getSnapshot().entries[0]).toMatchObject({ kind: 'command', reply: 'ok' });
  });

  it('an input the gateway dropped stays shown as one that entered no turn', () => {
    const model = new ConversationModel('s');
    model.sending('k1', { text: 'ignored', attachments: [] }, 'page-k1');
    model.sendAccepted('k1', 'm1', { routed: 'dropped' });
    expect(model.getSnapshot().pending).toEqual([]);
    expect(model.getSnapshot().entries).toEqual([expect.objectContaining({ kind: 'released' })]);
  });

  it('edits in place; a rollback’s replaced turns become the new turn’s earlier versions (「‹ 1/2 ›」)', () => {
    const model = new ConversationModel('s');
    model.load({
      sessionId: 's',
      truncated: false,
      waiting: [],
      entries: [turn('t1', { inputs: [input('1', 'first')], outcome: 'replied' })],
    });
    model.startEdit('t1');
    expect(model.getSnapshot().editing).toEqual({ turnId: 't1', text: 'first' });
    model.editText('first, better');
    expect(model.getSnapshot().editing?.text).toBe('first, better');
    // The server's fresh timeline after the rollback: t1 replaced; then the new turn starts.
    const superseded = { rollbackId: 'r1', at: 2, action: 'edit' as const };
    model.load({
      sessionId: 's',
      truncated: false,
      waiting: [],
      entries: [turn('t1', { inputs: [input('1', 'first')], outcome: 'replied', superseded })],
    });
    expect(model.getSnapshot().editing).toBeUndefined();
    model.apply({ type: 'turn.started', turnId: 't2', at: 3 });
    model.apply({ type: 'input', turnId: 't2', input: input('2', 'first, better') });
    const turns = turnsOf(model);
    expect(turns.map((entry) => entry.turnId)).toEqual(['t2']);
    expect(turns[0]!.versions.map((version) => version.map((old) => old.turnId))).toEqual([['t1']]);
    // After a reload the timeline carries the same as previousVersions.
    const reloaded = new ConversationModel('s');
    reloaded.load({
      sessionId: 's',
      truncated: false,
      waiting: [],
      entries: [
        turn('t3', {
          inputs: [input('3', 'again')],
          outcome: 'replied',
          previousVersions: [
            [turn('t1', { superseded })],
            [turn('t2', { superseded: { ...superseded, rollbackId: 'r2' } })],
          ],
        }),
      ],
    });
    expect(turnsOf(reloaded)[0]!.versions).toHaveLength(2);
  });

  it('a snapshot keeps its identity until something changes, and an untouched turn stays the same object', () => {
    const model = new ConversationModel('s');
    model.apply({ type: 'text.delta', turnId: 't0', segment: 0, delta: 'old' });
    model.apply({ type: 'text.delta', turnId: 't1', segment: 0, delta: 'x' });
    let heard = 0;
    const stop = model.subscribe(() => {
      heard += 1;
    });
    const first = model.getSnapshot();
    expect(model.getSnapshot()).toBe(first);
    model.apply({ type: 'text.delta', turnId: 't1', segment: 0, delta: 'y' });
    const second = model.getSnapshot();
    expect(second).not.toBe(first);
    expect(second.entries[0]).toBe(first.entries[0]);
    stop();
    model.apply({ type: 'text.delta', turnId: 't1', segment: 0, delta: 'z' });
    expect(heard).toBe(1);
  });
});
