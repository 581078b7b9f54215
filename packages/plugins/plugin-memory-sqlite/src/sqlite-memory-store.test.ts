import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Message, WellKnownMetadataKeys } from '@aalis/schema-message';
import { openDatabase } from '@aalis/sqlite';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteMemoryStore } from './sqlite-memory-store.js';

let dir: string;
let release: () => void;
let store: SqliteMemoryStore;
let database: ReturnType<typeof openDatabase>['database'];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-memory-store-'));
  const lease = openDatabase(dir);
  release = lease.release;
  database = lease.database;
  store = new SqliteMemoryStore(database);
});
afterEach(() => {
  release();
  rmSync(dir, { recursive: true, force: true });
});

type Kind = 'conversation' | 'marker' | 'divider';
const make = (kind: Kind, content: string, turnId: string): Message => ({
  role: kind === 'conversation' ? 'user' : 'system',
  content,
  ...(kind === 'marker' ? { kind: 'event-marker' } : kind === 'divider' ? { kind: 'compression-divider' } : {}),
  metadata: { [WellKnownMetadataKeys.TurnId]: turnId },
});

/** The obvious implementation the store must agree with: the whole list, sliced. */
class Reference {
  messages: Message[] = [];
  active(): Message[] {
    let last = -1;
    this.messages.forEach((message, index) => {
      if (message.kind === 'compression-divider') last = index;
    });
    return this.messages.slice(last + 1);
  }
  read(from: number, includeControl: boolean): Message[] {
    const active = this.active();
    // Skip `from` conversation messages (at most all of them) and everything up to the last one skipped.
    let skipped = 0;
    let start = 0;
    for (let index = 0; index < active.length && skipped < from; index++) {
      if (active[index]!.kind === undefined) {
        skipped++;
        start = index + 1;
      }
    }
    return active.slice(start).filter((message) => includeControl || message.kind === undefined);
  }
}

const contents = (messages: readonly Message[]) => messages.map((message) => message.content);

describe('SqliteMemoryStore', () => {
  it('reads the window through the indexes, without scanning the session', () => {
    store.append('s', [make('conversation', 'a', 't1'), make('divider', '', 't1'), make('conversation', 'b', 't2')]);
    const plan = (sql: string, ...params: unknown[]) =>
      (database.connection.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
        .map((row) => row.detail)
        .join(' | ');
    expect(
      plan(
        'SELECT seq FROM memory_messages WHERE session_id = ? AND conversation_index = ? AND conversation_index IS NOT NULL',
        's',
        1,
      ),
    ).toMatch(/USING (COVERING )?INDEX memory_messages_conversation \(session_id=\? AND conversation_index=\?\)/);
    expect(plan('SELECT * FROM memory_messages WHERE session_id = ? AND seq >= ? ORDER BY seq', 's', 2)).toMatch(
      /USING PRIMARY KEY \(session_id=\? AND seq>\?\)/,
    );
    expect(
      plan('SELECT seq FROM memory_messages WHERE session_id = ? AND turn_id = ? AND turn_id IS NOT NULL', 's', 't'),
    ).toMatch(/memory_messages_turn/);
  });

  it('rolling back a turn that holds the last divider makes the history before it active again', () => {
    store.append('s', [make('conversation', 'a', 't1'), make('divider', '', 't1')]);
    store.append('s', [make('conversation', 'b', 't2'), make('divider', '', 't3'), make('conversation', 'c', 't4')]);
    expect(contents(store.read('s'))).toEqual(['c']);
    store.deleteByTurn('s', 't3');
    expect(contents(store.read('s'))).toEqual(['b', 'c']);
    expect(store.activeStart('s')).toBe(2);
    expect(store.countHistory('s')).toBe(2);
    store.deleteByTurn('s', 't1');
    expect(contents(store.read('s'))).toEqual(['b', 'c']);
    expect(store.activeStart('s')).toBe(0);
    expect(contents(store.read('s', { from: 1 }))).toEqual(['c']);
  });

  it('deleting an archived turn keeps the active window and its indexes right', () => {
    store.append('s', [
      make('conversation', 'old1', 't1'),
      make('conversation', 'old2', 't2'),
      make('divider', '', 'd'),
    ]);
    store.append('s', [make('conversation', 'new1', 't3'), make('conversation', 'new2', 't4')]);
    store.deleteByTurn('s', 't1');
    expect(store.activeStart('s')).toBe(2);
    expect(contents(store.read('s', { from: 1 }))).toEqual(['new2']);
    expect(contents(store.readAll('s'))).toEqual(['old2', '', 'new1', 'new2']);
  });

  it('property: agrees with slicing the whole list under appends, rollbacks and reads', () => {
    const operation = fc.oneof(
      {
        arbitrary: fc
          .array(
            fc.tuple(
              fc.constantFrom<Kind>('conversation', 'conversation', 'marker', 'divider'),
              fc.integer({ min: 0, max: 5 }),
            ),
            {
              minLength: 1,
              maxLength: 4,
            },
          )
          .map((batch) => ({ type: 'append' as const, batch })),
        weight: 4,
      },
      { arbitrary: fc.integer({ min: 0, max: 5 }).map((turn) => ({ type: 'delete' as const, turn })), weight: 1 },
    );
    let run = 0;
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 25 }), (operations) => {
        const sessionId = `p${run++}`;
        const reference = new Reference();
        let counter = 0;
        for (const op of operations) {
          if (op.type === 'append') {
            const batch = op.batch.map(([kind, turn]) => make(kind, `m${counter++}`, `t${turn}`));
            store.append(sessionId, batch);
            reference.messages.push(...batch);
          } else {
            const deleted = store.deleteByTurn(sessionId, `t${op.turn}`);
            const before = reference.messages.length;
            reference.messages = reference.messages.filter(
              (message) => message.metadata?.[WellKnownMetadataKeys.TurnId] !== `t${op.turn}`,
            );
            expect(deleted).toBe(before - reference.messages.length);
          }
          const active = reference.active();
          const count = active.filter((message) => message.kind === undefined).length;
          expect(store.countHistory(sessionId)).toBe(count);
          expect(store.activeStart(sessionId)).toBe(reference.messages.length - active.length);
          expect(contents(store.readAll(sessionId))).toEqual(contents(reference.messages));
          for (let from = 0; from <= count + 1; from++) {
            for (const includeControl of [false, true]) {
              expect(contents(store.read(sessionId, { from, includeControl }))).toEqual(
                contents(reference.read(from, includeControl)),
              );
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('append answers every message exactly as a read gives it back afterwards', () => {
    const turn = { [WellKnownMetadataKeys.TurnId]: 't1' };
    const shapes: Message[] = [
      { role: 'user', content: 'plain' },
      { role: 'user', content: 'with extra', metadata: { ...turn, sender: { id: 'u1' }, n: [1, 2] }, timestamp: 5 },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
        reasoningContent: 'thinking',
        metadata: turn,
      },
      { role: 'tool', content: '{"t":21}', toolCallId: 'c1', name: 'weather', metadata: turn },
      { role: 'user', content: 'parts', parts: [{ type: 'text', text: 'hi' }], extra: { x: null } } as Message,
      { role: 'user', content: 'attachment', attachments: [{ type: 'image', url: 'https://example.com/a.png' }] },
      { role: 'system', content: '', kind: 'event-marker', metadata: { ...turn, at: new Date(0) } },
      { role: 'system', content: 'stopped', kind: 'turn-stopped', metadata: { gone: undefined, nan: Number.NaN } },
      { role: 'system', content: 'summary', kind: 'compression-divider' },
      { role: 'assistant', content: 'after the divider', name: undefined },
    ];
    const answered = store.append('s', shapes);
    expect(store.readAll('s')).toStrictEqual(answered);
    expect(answered.map((message) => JSON.stringify(message))).toEqual(
      store.readAll('s').map((message) => JSON.stringify(message)),
    );
  });
});
