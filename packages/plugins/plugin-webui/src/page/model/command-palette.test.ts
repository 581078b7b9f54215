import { describe, expect, it } from 'vitest';
import { paletteRows, pickedText } from './command-palette.js';

const commands = [
  { name: 'clear', description: 'Clear this session’s history', level: 0 },
  { name: 'help', description: 'List the commands', level: 0 },
  { name: 'remind', usage: '/remind <time> <text>', description: 'Remind me later', level: 0 },
  { name: '/history', description: 'Show what she remembers of this chat', level: 0 },
];

describe('paletteRows', () => {
  it('opens on a slash with every command and its usage line', () => {
    const rows = paletteRows(commands, '/');
    expect(rows?.map((row) => row.name)).toEqual(['clear', 'help', 'remind', 'history']);
    expect(rows?.[2]?.usage).toBe('/remind <time> <text>');
    expect(rows?.[0]?.usage).toBe('/clear');
  });

  it('filters as you type: names that start with the text first, then names or descriptions containing it', () => {
    // 'remind' starts with it; 'history' only mentions it ("remembers"), so it comes after.
    expect(paletteRows(commands, '/re')?.map((row) => row.name)).toEqual(['remind', 'history']);
    expect(paletteRows(commands, '/hist')?.map((row) => row.name)).toEqual(['history', 'clear']);
    expect(paletteRows(commands, '/comm')?.map((row) => row.name)).toEqual(['help']);
    expect(paletteRows(commands, '/zzz')).toEqual([]);
  });

  it('is closed without a leading slash, once arguments start, or before the list arrived', () => {
    expect(paletteRows(commands, 'hello')).toBeUndefined();
    expect(paletteRows(commands, '/remind 10m')).toBeUndefined();
    expect(paletteRows(undefined, '/')).toBeUndefined();
  });

  it('puts the picked command and a space in the composer', () => {
    expect(pickedText({ name: 'remind', usage: '', description: '' })).toBe('/remind ');
  });
});
