// The offset the poller confirms: it moves only past updates whose input was stored, remembers the later stored ones
// of a batch (kept with the offset in the database, so a restart does not hand them over again) and moves past one
// given up on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '@aalis/sqlite';
import { describe, expect, it } from 'vitest';
import { sqliteOffsetStore } from './telegram-offset-store.js';
import { UpdateOffset } from './telegram-update-offset.js';

describe('UpdateOffset', () => {
  it('moves past stored and handled updates, stops at the first not stored and remembers the stored ones after it', () => {
    const offset = new UpdateOffset({ nextOffset: undefined, storedAbove: [] });
    expect(offset.settle([{ updateId: 10, receipt: 'stored' }])).toEqual({ changed: true });
    expect(offset.next).toBe(11);
    const settled = offset.settle([
      { updateId: 11, receipt: 'handled' },
      { updateId: 12, receipt: 'failed' },
      { updateId: 13, receipt: 'stored' },
      { updateId: 14, receipt: 'failed' },
      { updateId: 15, receipt: 'stored' },
    ]);
    expect(settled).toEqual({ changed: true, unstored: 12 });
    expect(offset.next).toBe(12);
    expect(offset.storedAbove).toEqual([13, 15]);
    expect([12, 13, 14, 15].map((id) => offset.isStored(id))).toEqual([false, true, false, true]);
    // Fetched again: the stored ones are not handed over, so only 12 and 14 come back with receipts.
    expect(
      offset.settle([
        { updateId: 12, receipt: 'stored' },
        { updateId: 14, receipt: 'stored' },
      ]),
    ).toEqual({ changed: true });
    expect(offset.next).toBe(16);
    expect(offset.storedAbove).toEqual([]);
  });

  it('a batch that changes nothing says so; an update given up on is passed', () => {
    const offset = new UpdateOffset({ nextOffset: 20, storedAbove: [21, 7] });
    expect(offset.storedAbove).toEqual([21]);
    expect(offset.settle([{ updateId: 20, receipt: 'failed' }])).toEqual({ changed: false, unstored: 20 });
    offset.skip(20);
    expect(offset.next).toBe(22);
    expect(offset.storedAbove).toEqual([]);
  });
});

describe('the SQLite offset store', () => {
  it('keeps the offset and the ids stored above it across a reopen', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aalis-telegram-offset-'));
    try {
      const first = new SqliteDatabase(join(dir, 'aalis.db'));
      const store = sqliteOffsetStore(first);
      expect(store.load('bot')).toEqual({ nextOffset: undefined, storedAbove: [] });
      store.save('bot', 12, [13, 15]);
      first.close();
      const second = new SqliteDatabase(join(dir, 'aalis.db'));
      expect(sqliteOffsetStore(second).load('bot')).toEqual({ nextOffset: 12, storedAbove: [13, 15] });
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
