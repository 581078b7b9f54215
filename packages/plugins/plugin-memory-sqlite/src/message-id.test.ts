import { describe, expect, it } from 'vitest';
import { newMessageId } from './message-id.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newMessageId', () => {
  it('is a version-7 UUID whose first 48 bits are the time in milliseconds', () => {
    const now = Date.UTC(2026, 11, 2, 3, 4, 5, 678);
    const id = newMessageId(now);
    expect(id).toMatch(V7);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(now);
  });

  it('sorts by time across milliseconds and never repeats', () => {
    const ids: string[] = [];
    for (let ms = 0; ms < 200; ms++) for (let i = 0; i < 50; i++) ids.push(newMessageId(1_800_000_000_000 + ms));
    expect(new Set(ids).size).toBe(ids.length);
    const prefixes = ids.map((id) => id.slice(0, 13));
    expect([...prefixes].sort()).toEqual(prefixes);
    for (const id of ids) expect(id).toMatch(V7);
  });
});
