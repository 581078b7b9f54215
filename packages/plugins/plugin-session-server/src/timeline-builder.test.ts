import { deliveryFailureNote } from '@aalis/api-gateway';
import { defineCatalogue } from '@aalis/core';
import { WellKnownMetadataKeys as Keys, type Message } from '@aalis/schema-message';
import type { TimelineEntry, TimelineTurn } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { inputText } from './input-text.js';
import { buildTimelineEntries } from './timeline-builder.js';

function firstTurn(entries: TimelineEntry[]): TimelineTurn {
  const turn = entries[0];
  if (turn?.kind !== 'turn') throw new Error('no turn first');
  return turn;
}

const sources = { room: false, attachmentUrl: (id: string, index: number) => `/a/${id}/${index}` };
const record = (outcome: string, extra: Record<string, unknown> = {}) => ({
  outcome,
  origin: { platform: 'webui', arrivals: [], participants: [] },
  ...extra,
});

describe('buildTimelineEntries', () => {
  it('groups by turn id, hides stop markers and event markers, keeps released inputs and dividers', () => {
    const messages: Message[] = [
      {
        id: '1',
        role: 'user',
        content: '[2026-12-01 10:00] hello',
        metadata: { [Keys.TurnId]: 't1', [Keys.TurnEntry]: 'opened' },
        timestamp: 1,
      },
      { id: '2', role: 'system', kind: 'turn-stopped', content: '[已停下] …', metadata: { [Keys.TurnId]: 't1' } },
      {
        id: '3',
        role: 'system',
        kind: 'event-marker',
        content: '',
        metadata: {
          [Keys.TurnId]: 't1',
          [Keys.TurnRecord]: record('aborted', { stoppedBy: { platform: 'webui', userId: 'owner' } }),
        },
      },
      { id: '4', role: 'user', content: 'late', metadata: {}, timestamp: 5 },
      {
        id: '5',
        role: 'system',
        kind: 'compression-divider',
        content: '',
        metadata: { [Keys.Summary]: 'sum' },
        timestamp: 6,
      },
    ];
    const entries = buildTimelineEntries(messages, sources);
    expect(entries).toMatchObject([
      { kind: 'turn', turnId: 't1', outcome: 'aborted', stoppedBy: { userId: 'owner' }, items: [] },
      { kind: 'released', input: { text: 'late' } },
      { kind: 'divider', summary: 'sum' },
    ]);
    expect((entries[0] as { inputs: { text: string }[] }).inputs[0]!.text).toBe('hello');
  });

  it('gives a failed turn’s coded reason in both languages, so each page shows its own', () => {
    defineCatalogue({
      'zh-CN': { 'timeline-test.failed': '{model} 出错了（HTTP {status}）。' },
      en: { 'timeline-test.failed': '{model} failed (HTTP {status}).' },
    });
    const failed = (extra: Record<string, unknown>): Message => ({
      id: 'e',
      role: 'system',
      kind: 'event-marker',
      content: '',
      metadata: { [Keys.TurnId]: 't1', [Keys.TurnRecord]: record('error', extra) },
    });
    const coded = firstTurn(
      buildTimelineEntries(
        [
          failed({
            error: 'm 出错了（HTTP 500）。',
            errorText: { key: 'timeline-test.failed', params: { model: 'm', status: 500 } },
          }),
        ],
        sources,
      ),
    );
    expect(coded).toMatchObject({
      outcome: 'error',
      error: 'm 出错了（HTTP 500）。',
      errors: { 'zh-CN': 'm 出错了（HTTP 500）。', en: 'm failed (HTTP 500).' },
    });
    // A reason that is no catalogue text (an unexpected exception) is shown as stored.
    const plain = firstTurn(buildTimelineEntries([failed({ error: 'TypeError: x is undefined' })], sources));
    expect(plain.error).toBe('TypeError: x is undefined');
    expect(plain.errors).toBeUndefined();
  });

  it('marks a reply whose delivery failed 「未发出」 and shows the failure as a notice of its turn', () => {
    const messages: Message[] = [
      { id: '1', role: 'user', content: 'q', metadata: { [Keys.TurnId]: 't', [Keys.TurnEntry]: 'opened' } },
      {
        id: '2',
        role: 'assistant',
        content: 'a',
        metadata: { [Keys.TurnId]: 't', [Keys.TurnRecord]: record('replied') },
      },
      {
        id: '3',
        role: 'system',
        content: '[Delivery failed] …',
        metadata: { [Keys.TurnId]: 't', [Keys.DeliveryFailure]: { code: 'X' } },
      },
    ];
    const turn = firstTurn(buildTimelineEntries(messages, sources));
    expect(turn.items).toMatchObject([
      { kind: 'text', text: 'a', final: true, unsent: true },
      { kind: 'notice', tone: 'delivery-failure' },
    ]);
  });

  it('gives a delivery failure kept with its catalogue text in both languages; an older row only its stored text', () => {
    const failure = { platform: 'onebot', code: 'AALIS_ONEBOT_API_FAILED', reason: 'retcode 1200' };
    const stored = (id: string, turnId: string | undefined, extra: Record<string, unknown>): Message => ({
      id,
      role: 'system',
      kind: 'delivery-failure',
      content: '[投递失败] 上面那条回复没有送到 onebot：retcode 1200',
      metadata: { ...(turnId ? { [Keys.TurnId]: turnId } : {}), [Keys.DeliveryFailure]: { ...failure, ...extra } },
      timestamp: 5,
    });
    const entries = buildTimelineEntries(
      [
        stored('1', 't', { text: deliveryFailureNote(failure) }),
        stored('2', undefined, { text: deliveryFailureNote(failure) }),
        stored('3', 't2', {}),
        // A text whose key no loaded catalogue has: the stored text stands.
        stored('4', 't3', { text: { key: 'nobody.knows', params: { a: 1 } } }),
      ],
      sources,
    );
    const texts = {
      'zh-CN': '[投递失败] 上面那条回复没有送到 onebot：retcode 1200',
      en: '[Delivery failed] The reply above did not reach onebot: retcode 1200',
    };
    expect(entries).toMatchObject([
      { kind: 'turn', items: [{ kind: 'notice', tone: 'delivery-failure', text: texts['zh-CN'], texts }] },
      { kind: 'note', tone: 'delivery-failure', text: texts['zh-CN'], texts },
      { kind: 'turn', items: [{ kind: 'notice', text: texts['zh-CN'] }] },
      { kind: 'turn', items: [{ kind: 'notice', text: texts['zh-CN'] }] },
    ]);
    const older = entries.slice(2).map((entry) => (entry.kind === 'turn' ? entry.items[0] : undefined));
    expect(older.map((item) => (item && 'texts' in item ? item.texts : undefined))).toEqual([undefined, undefined]);
  });

  it('shows a notice recorded outside a turn as a note, in both languages when its text is known', () => {
    const marker = (id: string, text: unknown): Message => ({
      id,
      role: 'system',
      kind: 'event-marker',
      content: '[投递失败] 上面那条回复没有送到 qq：x',
      metadata: { [Keys.Notice]: { kind: 'system', text } },
      timestamp: 9,
    });
    const note = deliveryFailureNote({ platform: 'qq', reason: 'x' });
    expect(buildTimelineEntries([marker('1', note), marker('2', undefined)], sources)).toEqual([
      {
        kind: 'note',
        id: '1',
        tone: 'info',
        text: '[投递失败] 上面那条回复没有送到 qq：x',
        texts: {
          'zh-CN': '[投递失败] 上面那条回复没有送到 qq：x',
          en: '[Delivery failed] The reply above did not reach qq: x',
        },
        at: 9,
      },
      { kind: 'note', id: '2', tone: 'info', text: '[投递失败] 上面那条回复没有送到 qq：x', at: 9 },
    ]);
  });

  it('places a notice after the held-back input it answers, stored after it; one whose input never came stays', () => {
    const notice = (id: string, replyTo: string): Message => ({
      id,
      role: 'system',
      kind: 'event-marker',
      content: `notice ${id}`,
      metadata: { [Keys.Notice]: { kind: 'system' }, [Keys.ReplyTo]: replyTo },
      timestamp: 1,
    });
    const held = (id: string, messageId: string): Message => ({
      id,
      role: 'user',
      content: `[2026-12-01 10:00] held ${id}`,
      metadata: { [Keys.MessageId]: messageId },
      timestamp: 2,
    });
    const entries = buildTimelineEntries(
      [notice('n1', 'm-1'), notice('n2', 'm-lost'), held('i1', 'm-1'), notice('n3', 'm-1'), held('i2', 'm-2')],
      sources,
    );
    expect(
      entries.map((entry) => (entry.kind === 'note' ? entry.id : entry.kind === 'released' ? entry.input.id : '?')),
    ).toEqual(['n2', 'i1', 'n1', 'n3', 'i2']);
    expect(entries[2]).toMatchObject({ kind: 'note', replyTo: 'm-1' });
  });

  it('matches tool results to their cards and takes the callId, error state and duration', () => {
    const messages: Message[] = [
      {
        id: '1',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'p1', type: 'function', function: { name: 'calc', arguments: '{}' } }],
        metadata: { [Keys.TurnId]: 't' },
      },
      {
        id: '2',
        role: 'tool',
        toolCallId: 'p1',
        content: 'boom',
        metadata: { [Keys.CallId]: 'call-9', [Keys.ToolError]: true },
      },
    ];
    const turn = firstTurn(
      buildTimelineEntries(messages, {
        ...sources,
        durationOf: (id) => (id === 'call-9' ? 12 : undefined),
      }),
    );
    expect(turn.items).toEqual([
      {
        kind: 'tool',
        callId: 'call-9',
        segment: 0,
        name: 'calc',
        arguments: '{}',
        state: 'error',
        result: 'boom',
        durationMs: 12,
      },
    ]);
  });
});

describe('inputText', () => {
  it('removes the time annotation and the sender prefix, and only that', () => {
    expect(inputText('[2026-12-01 10:00] Alice: hi: there', { senderName: 'Alice' })).toBe('hi: there');
    expect(inputText('[2026-12-01 10:00] note: keep', {})).toBe('note: keep');
    expect(inputText('no annotation: kept', { senderName: 'no annotation' })).toBe('no annotation: kept');
  });
});
