import type { SessionSummary } from '@aalis/session-client';
import { describe, expect, it } from 'vitest';
import { descendantsOf, flattenTree, sessionTree } from './session-tree.js';

function session(id: string, extra: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    kind: 'web',
    platform: 'webui',
    children: [],
    createdAt: 0,
    updatedAt: 0,
    unread: false,
    running: false,
    writable: true,
    canSend: true,
    ...extra,
  };
}

const sessions = [
  session('webui:a', { title: 'Shopping list', updatedAt: 5 }),
  session('qq:group-1', { kind: 'room', platform: 'qq', title: '家庭群', updatedAt: 9 }),
  session('child-1', { kind: 'child', parentId: 'qq:group-1', title: 'Research flights', updatedAt: 3 }),
  session('child-2', { kind: 'child', parentId: 'child-1', title: 'Compare prices', updatedAt: 4 }),
  session('orphan', { kind: 'child', parentId: 'gone', updatedAt: 1 }),
];

describe('sessionTree', () => {
  it('nests child sessions under their parent, most recent first, orphans at the top', () => {
    const rows = flattenTree(sessionTree(sessions));
    expect(rows.map((row) => [row.session.id, row.depth])).toEqual([
      ['qq:group-1', 0],
      ['child-1', 1],
      ['child-2', 2],
      ['webui:a', 0],
      ['orphan', 0],
    ]);
  });

  it('keeps the ancestors of a match, marked as not matching themselves; matches titles case- and width-blind', () => {
    const rows = flattenTree(sessionTree(sessions, 'PRICES'));
    expect(rows.map((row) => [row.session.id, row.matched])).toEqual([
      ['qq:group-1', false],
      ['child-1', false],
      ['child-2', true],
    ]);
    expect(flattenTree(sessionTree(sessions, '家庭')).map((row) => row.session.id)).toEqual([
      'qq:group-1',
      'child-1',
      'child-2',
    ]);
    expect(sessionTree(sessions, 'nothing like this')).toEqual([]);
  });

  it('shows every session of a parent cycle in the data once, without looping', () => {
    const looped = [session('a', { parentId: 'b' }), session('b', { parentId: 'a' }), session('c')];
    expect(flattenTree(sessionTree(looped)).map((row) => [row.session.id, row.depth])).toEqual([
      ['c', 0],
      ['a', 0],
      ['b', 1],
    ]);
  });

  it('lists what a deletion takes with it', () => {
    expect(descendantsOf(sessions, 'qq:group-1')).toEqual(['child-1', 'child-2']);
    expect(descendantsOf(sessions, 'webui:a')).toEqual([]);
  });
});
